// Which service, vertical and state a path names, resolved against the catalogue.
import type { CatalogData, ServiceSummary } from './types'

// First path segments that are never a vertical, so /about-us/x is not read as a service page.
const RESERVED_SEGMENTS = new Set(['category', 'call-thanks', 'thank-you', 'disqualified',
  'about-us', 'partner-with-us', 'privacy-policy', 'terms', 'marketing-partners', 'admin'])
const SLUG_ONLY_SEGMENTS = new Set(['services', 'form', 'call'])

export interface ServicePathMatch {
  vertical?: string
  slug: string
  stateCode?: string
}

/** The service, optional vertical and optional state named by a service, form or call path. */
export function matchServicePath(pathname: string): ServicePathMatch | null {
  const segments = pathname.split('/').filter(Boolean)
  if (segments.length < 2 || segments.length > 3) return null
  const [first, slug, stateCode] = segments
  if (SLUG_ONLY_SEGMENTS.has(first)) return { slug, stateCode }
  if (RESERVED_SEGMENTS.has(first)) return null
  return { vertical: first, slug, stateCode }
}

/** A service by slug or alias, within a vertical when given; otherwise the first category's. */
export function findService(catalog: CatalogData, slug: string, vertical?: string): ServiceSummary | undefined {
  const named = (service: ServiceSummary) => service.id === slug || service.aliases.includes(slug)
  if (vertical) return catalog.services.find((s) => s.vertical === vertical && named(s))
  for (const category of catalog.categories) {
    const found = catalog.services.find((s) => s.vertical === category.id && named(s))
    if (found) return found
  }
  return undefined
}

export function stateName(catalog: CatalogData, code: string | undefined): string | undefined {
  if (!code) return undefined
  return catalog.site.states.find((s) => s.value.toLowerCase() === code.toLowerCase())?.label
}
