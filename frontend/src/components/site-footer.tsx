import { Link, useLocation } from 'react-router'
import { useCatalogState } from '../lib/catalog-context'
import { paths } from '../lib/paths'
import { findService, matchServicePath } from '../lib/service-lookup'
import { servicesOf } from './catalog-links'
import { Container } from './container'
import { PrivacyControlNotice } from './privacy-control-notice'

const YEAR = new Date().getFullYear()
// inline-block: a name that wraps stays one rectangle, so a tap at its centre lands on it.
const linkClass = 'inline-block text-slate-300 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-white'

/** Every category and service link, the current service's disclaimer, legal links and the year. */
export function SiteFooter({ pathname }: { pathname?: string }) {
  const state = useCatalogState()
  const location = useLocation()
  const catalog = state.status === 'ready' ? state.catalog : null
  const match = matchServicePath(pathname ?? location.pathname)
  const service = catalog && match ? findService(catalog, match.slug, match.vertical) : undefined
  const brandName = catalog?.config.brandName ?? 'ServiceMatch'

  return (
    <footer className="mt-auto bg-brand-900 text-sm text-slate-300">
      <Container className="py-10">
        {catalog ? (
          <div className="grid grid-cols-2 gap-8 md:grid-cols-4">
            {catalog.categories.map((category) => (
              <nav key={category.id} aria-labelledby={`footer-${category.id}`}>
                <h2 id={`footer-${category.id}`} className="mb-3 font-bold text-white">
                  <Link to={paths.category(category.id)} className="hover:underline">
                    {category.name}
                  </Link>
                </h2>
                <ul className="space-y-2">
                  {servicesOf(catalog, category).map(({ service: item, to }) => (
                    <li key={item.id}>
                      <Link to={to} className={linkClass}>
                        {item.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        ) : null}
        {service?.disclaimer ? (
          <p data-testid="service-disclaimer" className="mt-8 border-t border-white/10 pt-6 text-xs leading-relaxed text-slate-400">
            {service.disclaimer}
          </p>
        ) : null}
        <PrivacyControlNotice className="mt-8 rounded-lg bg-white/10 px-4 py-3 font-semibold text-white" />
        <p className="mt-8 border-t border-white/10 pt-6 text-xs leading-relaxed text-slate-400">
          {brandName} is a free service that connects consumers with independent third-party service
          providers. Services are provided by independent third parties, not by {brandName}.
        </p>
        <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {YEAR} {brandName}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li><Link to={paths.aboutUs} className={linkClass}>About Us</Link></li>
            <li><Link to={paths.partnerWithUs} className={linkClass}>Partner With Us</Link></li>
            <li><Link to={paths.privacyPolicy} className={linkClass}>Privacy Policy</Link></li>
            <li><Link to={paths.terms} className={linkClass}>Terms of Use</Link></li>
            <li><Link to={paths.privacyRequests} className={linkClass}>Do Not Sell or Share My Personal Information</Link></li>
            <li><Link to={paths.privacyChoices} className={linkClass}>Your Privacy Choices</Link></li>
          </ul>
        </div>
      </Container>
    </footer>
  )
}
