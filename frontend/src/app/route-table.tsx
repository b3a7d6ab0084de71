import { createElement, lazy, type ComponentType } from 'react'
import { matchRoutes, type RouteObject } from 'react-router'
// The one route table of the site, shared with the server (backend/servicematch/web/routes.py
// reads it for metadata, status codes, the sitemap and the pages rendered at build time).
import manifest from '../../../backend/servicematch/web/routes.json'
import ErrorScreen from './error-screen'
import RootLayout from './root-layout'

export interface ManifestRoute {
  path: string
  kind: string
  screen: string | null
  funnel: boolean
  sitemap: boolean
  indexable: boolean
  prerender: boolean
  entry?: string
}

export const manifestRoutes: ManifestRoute[] = manifest.routes

type PageModule = { default: ComponentType }

// Each screen is its own chunk, so a visitor downloads only the screen they open (the server
// names the screen's chunk in the page, so it arrives alongside the entry script).
const screenModules = import.meta.glob<PageModule>([
  '../pages/*.tsx',
  // In the entry chunk: the modal that opens over any page.
  '!../pages/marketing-partners.tsx',
  '!../pages/*.test.tsx',
])

interface Screen {
  Component: ComponentType
  preload: () => Promise<void>
}

/**
 * A screen loaded on demand. Once its module is loaded (preload() before hydrating a page
 * rendered at build time, or before rendering it on the server) it renders synchronously, so
 * the first render matches the HTML instead of suspending; until then it suspends (React.lazy).
 */
function lazyScreen(load: () => Promise<PageModule>): Screen {
  let Loaded: ComponentType | undefined
  const preload = () => load().then((module) => void (Loaded = module.default))
  const Lazy = lazy(() => preload().then(() => ({ default: Loaded! })))
  const Component = () => createElement(Loaded ?? Lazy)
  return { Component, preload }
}

const screens = new Map<string, Screen>()
for (const route of manifestRoutes) {
  const load = route.screen ? screenModules[`../pages/${route.screen}.tsx`] : undefined
  if (route.screen && load && !screens.has(route.screen)) screens.set(route.screen, lazyScreen(load))
}

function screenElement(route: ManifestRoute) {
  const screen = route.screen ? screens.get(route.screen) : undefined
  return screen ? <screen.Component /> : null
}

// The public site's routes; the operator console (admin.html) and the provider portal (pro.html)
// are pages of their own, each with a router of its own.
const siteRoutes = manifestRoutes.filter((route) => (route.entry ?? 'index.html') === 'index.html')

// A route whose screen module does not exist (yet) is left out, so it is a 404, not a blank page.
const available = siteRoutes.filter((route) => route.screen === null || screens.has(route.screen))

// The pages, rendered by the root layout (see root-layout.tsx for why it renders them itself).
// Routes without a screen of their own (the marketing-partners modal) draw over another page.
export const pageRoutes: RouteObject[] = available
  .filter((route) => route.screen !== null)
  .map((route) => ({ path: route.path, element: screenElement(route) }))

// The data router only decides matched or not: an unmatched path becomes its 404 error and
// lands on the error screen, as do render errors of any page.
const matchOnly: RouteObject[] = available.map((route): RouteObject => (route.path === '/' ? { index: true, element: null } : { path: route.path, element: null }))

export const appRoutes: RouteObject[] = [
  { path: '/', element: <RootLayout pages={pageRoutes} />, errorElement: <ErrorScreen />, children: matchOnly },
]

/** Load the screen a path shows, so rendering it does not suspend. */
export async function preloadScreen(pathname: string): Promise<void> {
  const matched = matchRoutes(pageRoutes, pathname)?.[0]
  const route = matched && siteRoutes.find((r) => r.path === matched.route.path)
  const screen = route?.screen ? screens.get(route.screen) : undefined
  if (screen) await screen.preload()
}
