// What both portals' apps are (pro/portal-app.tsx, buyer/buyer-app.tsx): the pages reached from a
// mailed link or before signing in, then the portal's own pages behind the sign-in gate, all under
// the portal's session. Each portal names its pages; the loaders stay with it so each page remains
// its own chunk.
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react'
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router'
import { lazyPage as page } from './lazy-page'
import { ErrorNotice } from './portal-ui'
import { Loading, SignedInGate } from './ui'

type PageLoader<P = object> = () => Promise<{ default: ComponentType<P> }>

export interface PortalAppParts {
  basename: string
  paths: { welcome: string; reset: string; forgot: string; signInLink: string }
  session: {
    SessionProvider: ComponentType<{ children: ReactNode }>
    useSession: () => { session: unknown; checking: boolean }
  }
  signIn: ReactNode
  choosePassword: PageLoader<{ welcome: boolean }>
  forgotPage: PageLoader
  signInLinkPage: PageLoader
  // Other pages reached before signing in.
  publicRoutes?: RouteObject[]
  // The signed-in layout, and where its index goes.
  layout: ReactNode
  home: string
  pages: RouteObject[]
}

export function createPortalApp(parts: PortalAppParts): () => ReactNode {
  const { SessionProvider, useSession } = parts.session
  const ChoosePassword = lazy(parts.choosePassword)

  function SignedInOnly({ children }: { children: ReactNode }) {
    const { session, checking } = useSession()
    return <SignedInGate checking={checking} signedIn={session !== null} signIn={parts.signIn}>{children}</SignedInGate>
  }

  const router = createBrowserRouter(
    [
      // Pages reached from a mailed link or before signing in.
      { path: parts.paths.welcome, element: <Suspense fallback={<Loading />}><ChoosePassword welcome /></Suspense> },
      { path: parts.paths.reset, element: <Suspense fallback={<Loading />}><ChoosePassword welcome={false} /></Suspense> },
      { path: parts.paths.forgot, ...page(parts.forgotPage) },
      { path: parts.paths.signInLink, ...page(parts.signInLinkPage) },
      ...(parts.publicRoutes ?? []),
      {
        path: '/',
        element: <SignedInOnly>{parts.layout}</SignedInOnly>,
        children: [
          { index: true, element: <Navigate to={parts.home} replace /> },
          ...parts.pages,
          { path: '*', element: <ErrorNotice message="There is no portal page at this address." /> },
        ],
      },
    ],
    { basename: parts.basename },
  )

  return function PortalApp() {
    return (
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    )
  }
}
