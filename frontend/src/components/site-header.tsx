import { useCatalogState } from '../lib/catalog-context'
import { Container } from './container'
import { DesktopMenu } from './desktop-menu'
import { Logo } from './logo'
import { MobileMenu } from './mobile-menu'

/** Full header: logo, category menu (dropdowns on desktop, slide-in panel on phones). */
export function SiteHeader() {
  const state = useCatalogState()
  const catalog = state.status === 'ready' ? state.catalog : null
  return (
    // No backdrop-filter (or transform) here: it would make the header the containing block of
    // the phone menu's fixed panel, cutting the panel to the header's 64 px.
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <Container className="flex h-16 items-center justify-between">
        <Logo brandName={catalog?.config.brandName} />
        {catalog ? (
          <>
            <DesktopMenu catalog={catalog} />
            <MobileMenu catalog={catalog} />
          </>
        ) : null}
      </Container>
    </header>
  )
}

/** Funnel header: the logo only, so nothing distracts from finishing. */
export function FunnelHeader() {
  const state = useCatalogState()
  return (
    <header className="border-b border-slate-200 bg-white">
      <Container className="flex h-14 items-center justify-center sm:justify-start">
        <Logo brandName={state.status === 'ready' ? state.catalog.config.brandName : undefined} />
      </Container>
    </header>
  )
}
