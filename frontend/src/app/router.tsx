import { lazy, type ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import HomePage from '../pages/home'
import ErrorScreen from './error-screen'
import RootLayout from './root-layout'

// Each page is its own chunk, so a visitor downloads only the screen they open.
type PageModule = { default: ComponentType }
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'element'> => {
  const Page = lazy(load)
  return { element: <Page /> }
}

// The pages, rendered by the root layout (see root-layout.tsx for why it renders them itself).
export const routes: RouteObject[] = [
  { path: '/', element: <HomePage /> },
  { path: '/category/:category', ...page(() => import('../pages/category')) },
  { path: '/services/:service', ...page(() => import('../pages/service')) },
  { path: '/services/:service/:state', ...page(() => import('../pages/service')) },
  { path: '/:vertical/:service', ...page(() => import('../pages/service')) },
  { path: '/:vertical/:service/:state', ...page(() => import('../pages/service')) },
  { path: '/about-us', ...page(() => import('../pages/about-us')) },
  { path: '/partner-with-us', ...page(() => import('../pages/partner-with-us')) },
  { path: '/privacy-policy', ...page(() => import('../pages/privacy-policy')) },
  { path: '/form/:service', ...page(() => import('../pages/form')) },
  { path: '/form/:service/:state', ...page(() => import('../pages/form')) },
  { path: '/call/:service', ...page(() => import('../pages/call')) },
  { path: '/call/:service/:state', ...page(() => import('../pages/call')) },
  { path: '/call-thanks', ...page(() => import('../pages/call-thanks')) },
  { path: '/thank-you', ...page(() => import('../pages/thank-you')) },
  { path: '/disqualified', ...page(() => import('../pages/disqualified')) },
]

// The data router only decides matched or not: an unmatched path becomes its 404 error and
// lands on the error screen, as do render errors of any page.
const matchOnly: RouteObject[] = [
  ...routes.map((route): RouteObject =>
    route.path === '/' ? { index: true, element: null } : { path: route.path, element: null },
  ),
  { path: '/marketing-partners', element: null },
]

export const router = createBrowserRouter([
  { path: '/', element: <RootLayout pages={routes} />, errorElement: <ErrorScreen />, children: matchOnly },
])
