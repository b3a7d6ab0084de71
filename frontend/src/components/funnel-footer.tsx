import { Link, useLocation } from 'react-router'
import { useCatalogState } from '../lib/catalog-context'
import { paths } from '../lib/paths'
import { findService, matchServicePath } from '../lib/service-lookup'
import { PrivacyControlNotice } from './privacy-control-notice'

const YEAR = new Date().getFullYear()
const linkClass =
  'inline-flex min-h-11 items-center font-medium text-slate-700 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600'

/** The footer of the funnel pages, where personal data and consent are collected: the service's
 * disclaimer, the privacy policy, the terms and the copyright, without the site's link lists. */
export function FunnelFooter({ pathname }: { pathname: string }) {
  const state = useCatalogState()
  const catalog = state.status === 'ready' ? state.catalog : null
  // /call-thanks names its service in the navigation state, not in its path.
  const handed = useLocation().state as { service?: unknown; vertical?: unknown } | null
  const match = matchServicePath(pathname) ?? (typeof handed?.service === 'string'
    ? { slug: handed.service, vertical: typeof handed.vertical === 'string' ? handed.vertical : undefined }
    : null)
  const service = catalog && match ? findService(catalog, match.slug, match.vertical) : undefined
  const brandName = catalog?.config.brandName ?? 'ServiceMatch'
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-50 text-xs leading-relaxed text-slate-600">
      <div className="mx-auto w-full max-w-3xl space-y-3 px-4 py-6 sm:px-6">
        <PrivacyControlNotice className="font-semibold text-slate-800" />
        {service?.disclaimer ? <p>{service.disclaimer}</p> : null}
        <p>
          {brandName} is a free service that connects consumers with independent third-party service providers.
          Services are provided by independent third parties, not by {brandName}.
        </p>
        <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
          <p>© {YEAR} {brandName}. All rights reserved.</p>
          <ul className="flex flex-wrap gap-x-5">
            <li><Link to={paths.privacyPolicy} className={linkClass}>Privacy Policy</Link></li>
            <li><Link to={paths.terms} className={linkClass}>Terms of Use</Link></li>
            <li><Link to={paths.privacyRequests} className={linkClass}>Do Not Sell or Share My Personal Information</Link></li>
            <li><Link to={paths.privacyChoices} className={linkClass}>Your Privacy Choices</Link></li>
          </ul>
        </div>
      </div>
    </footer>
  )
}
