import { Suspense, useEffect, type ReactNode } from 'react'
import { UNSAFE_RouteContext, useLocation, useRoutes, type Location, type RouteObject } from 'react-router'
import { FunnelHeader, SiteHeader } from '../components/site-header'
import { FunnelFooter } from '../components/funnel-footer'
import { SiteFooter } from '../components/site-footer'
import { paths } from '../lib/paths'
import { useMarkInteractive } from '../lib/typed-before-hydration'
import { captureUrlParams } from '../lib/url-params'
import MarketingPartnersModal from '../pages/marketing-partners'
import { isFunnelPath } from './routes'
import { ScrollToTop } from './scroll-to-top'
import { usePageMetadata } from './use-page-metadata'

const HOME_LOCATION: Location = { pathname: paths.home, search: '', hash: '', state: null, key: 'home' }

// At least a screen tall, like LoadingState: the footer stays below the fold until the page
// arrives instead of jumping down from the bottom of the screen (layout shift).
function PageFallback() {
  return (
    <div role="status" className="flex min-h-screen flex-1 items-center justify-center py-24 text-slate-500">
      Loading…
    </div>
  )
}

// The pages match on their own, below the root route: a fresh route context tells the router
// so, instead of it warning that the root path has no trailing "*".
const TOP_LEVEL = { outlet: null, matches: [], isDataRoute: false }

function Pages({ pages, location }: { pages: RouteObject[]; location: Location }) {
  // Inside the Suspense boundary: the mark waits for the page itself, not only the shell.
  useMarkInteractive()
  return useRoutes(pages, location)
}

/** The site's frame around a page: header with its menu, the main landmark, footer. */
export function Shell({ funnel, pathname, children }: { funnel: boolean; pathname: string; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Skip to content
      </a>
      {funnel ? <FunnelHeader /> : <SiteHeader />}
      {/* The one main landmark of every page; pages render their content straight into it. */}
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col focus:outline-none">
        {children}
      </main>
      {funnel ? <FunnelFooter pathname={pathname} /> : <SiteFooter pathname={pathname} />}
    </div>
  )
}

/**
 * The root of every page. The marketing-partners modal renders over the page it was opened
 * from (`backgroundLocation`, or home when opened directly); that page keeps the same element
 * tree, so a half-filled form keeps its answers while the modal is open.
 */
export default function RootLayout({ pages }: { pages: RouteObject[] }) {
  const location = useLocation()
  const isModal = location.pathname === paths.marketingPartners
  const background = isModal
    ? ((location.state as { backgroundLocation?: Location } | null)?.backgroundLocation ?? HOME_LOCATION)
    : location

  useEffect(() => captureUrlParams(location.search), [location.search, location.key])
  usePageMetadata(background.pathname)

  return (
    <>
      <ScrollToTop />
      <Shell funnel={isFunnelPath(background.pathname)} pathname={background.pathname}>
        <Suspense fallback={<PageFallback />}>
          <UNSAFE_RouteContext.Provider value={TOP_LEVEL}>
            <Pages pages={pages} location={background} />
          </UNSAFE_RouteContext.Provider>
        </Suspense>
      </Shell>
      {isModal ? <MarketingPartnersModal /> : null}
    </>
  )
}
