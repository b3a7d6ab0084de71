// Renders one public page to HTML at build time (frontend/scripts/prerender.mjs), from the same
// routes and data the browser uses; main.tsx hydrates it.
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { appRoutes, preloadScreen } from './app/route-table'
import { primeApiCache } from './lib/api'
import { CatalogProvider } from './lib/catalog-context'

export { primeApiCache }

const handler = createStaticHandler(appRoutes)

/**
 * The markup inside <div id="root"> for a path, or null when no screen of the app draws it
 * (a route of the table whose page module does not exist). `unmatched`: the path matches no route,
 * and its markup is the router's error screen, which the server sends for every unknown URL.
 * The API answers it reads must be primed first.
 */
export async function render(pathname: string, { unmatched = false } = {}): Promise<string | null> {
  await preloadScreen(pathname)
  const context = await handler.query(new Request(`http://localhost${pathname}`))
  if (context instanceof Response) throw new Error(`${pathname}: the router answered ${context.status}`)
  if (unmatched && context.statusCode !== 404) throw new Error(`${pathname}: a route matches it`)
  if (context.statusCode === 404 && !unmatched) return null
  if (context.statusCode !== 200 && !unmatched) throw new Error(`${pathname}: the router answered ${context.statusCode}`)
  const router = createStaticRouter(handler.dataRoutes, context)
  // hydrate={false}: no inline script with router state; the routes have no loaders to replay.
  return renderToString(
    <StrictMode>
      <CatalogProvider>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </CatalogProvider>
    </StrictMode>,
  )
}
