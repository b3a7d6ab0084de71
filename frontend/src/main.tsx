import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { preloadScreen } from './app/route-table'
import { router } from './app/router'
import { primeApiCache } from './lib/api'
import { CatalogProvider } from './lib/catalog-context'
import { readInitialData } from './lib/initial-data'
import './index.css'

primeApiCache(readInitialData())

const container = document.getElementById('root')!
const app = (
  <StrictMode>
    <CatalogProvider>
      <RouterProvider router={router} />
    </CatalogProvider>
  </StrictMode>
)

// Public pages arrive rendered (frontend/scripts/prerender.mjs): React takes over that markup.
// Pages the build could not render (they depend on the visitor's earlier steps) arrive with
// their heading only, which the first render replaces.
async function start() {
  if (container.hasAttribute('data-prerendered')) {
    // Load the screen's chunk first, so hydration does not suspend halfway and leave the page
    // inert a moment longer. Meanwhile typed text is kept (lib/typed-before-hydration.ts).
    await preloadScreen(window.location.pathname)
    // As a transition, React hydrates in slices and lets the browser handle input in between,
    // instead of one long task (Total Blocking Time on a slow phone).
    startTransition(() => {
      hydrateRoot(container, app)
    })
  } else {
    const root = createRoot(container)
    startTransition(() => root.render(app))
  }
}

// Let the browser paint the page's HTML before the first render takes the main thread.
// A tab opened in the background paints nothing, so it starts at once.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start))
else void start()
