import type { CatalogData, ServiceConfig } from './types'

export class ApiError extends Error {
  status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

// Answers already at hand: those the server put into the page (initial-data.ts), and on the
// server while rendering pages at build time. The first render reads them synchronously, so a
// page rendered ahead of time and its first render in the browser are the same.
const known = new Map<string, unknown>()

export function primeApiCache(answers: Record<string, unknown>): void {
  for (const [path, answer] of Object.entries(answers)) if (answer != null) known.set(path, answer)
}

export const CATALOG_PATH = '/api/catalog'

export const servicePath = (slug: string, vertical?: string) =>
  vertical
    ? `/api/services/${encodeURIComponent(vertical)}/${encodeURIComponent(slug)}`
    : `/api/services/${encodeURIComponent(slug)}`

async function getJson<T>(path: string): Promise<T> {
  if (known.has(path)) return known.get(path) as T
  const response = await fetch(path, { headers: { Accept: 'application/json' } })
  if (!response.ok) {
    const body = await response.json().catch(() => ({}))
    throw new ApiError(response.status, body.error ?? response.statusText)
  }
  return response.json() as Promise<T>
}

export const fetchCatalog = () => getJson<CatalogData>(CATALOG_PATH)

export const fetchService = (slug: string, vertical?: string) => getJson<ServiceConfig>(servicePath(slug, vertical))

/** The catalogue, when it is already at hand. */
export const knownCatalog = () => known.get(CATALOG_PATH) as CatalogData | undefined

/** A service's configuration, when it is already at hand. */
export const knownService = (slug: string, vertical?: string) =>
  slug ? (known.get(servicePath(slug, vertical)) as ServiceConfig | undefined) : undefined
