import { lazy, Suspense, type ReactNode } from 'react'
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router'
import { lazyPage as page } from '../shell/lazy-page'
import { SignedInGate } from '../shell/ui'
import { PortalLayout } from './layout'
import { BASENAME, PATHS } from './paths'
import { SessionProvider, useSession } from './session'
import { SignIn } from './sign-in'
import { ErrorNotice, Loading } from './ui'

// Each page is its own chunk: the sign-in form does not wait for the profile's form.
const ChoosePassword = lazy(() => import('./choose-password-page'))

function SignedInOnly({ children }: { children: ReactNode }) {
  const { session, checking } = useSession()
  return <SignedInGate checking={checking} signedIn={session !== null} signIn={<SignIn />}>{children}</SignedInGate>
}

const router = createBrowserRouter(
  [
    // Pages reached from a mailed link or before signing in.
    { path: PATHS.welcome, element: <Suspense fallback={<Loading />}><ChoosePassword welcome /></Suspense> },
    { path: PATHS.reset, element: <Suspense fallback={<Loading />}><ChoosePassword welcome={false} /></Suspense> },
    { path: PATHS.forgot, ...page(() => import('./forgot-page')) },
    { path: PATHS.signInLink, ...page(() => import('./sign-in-link-page')) },
    { path: PATHS.confirmEmail, ...page(() => import('./confirm-email-page')) },
    {
      path: '/',
      element: <SignedInOnly><PortalLayout /></SignedInOnly>,
      children: [
        { index: true, element: <Navigate to={PATHS.offers} replace /> },
        { path: PATHS.offers, ...page(() => import('./offers/offers-page')) },
        { path: PATHS.offer, ...page(() => import('./offers/offer-page')) },
        { path: PATHS.money, ...page(() => import('./money/money-page')) },
        { path: PATHS.invoice, ...page(() => import('./money/invoices-page')) },
        { path: PATHS.profile, ...page(() => import('./profile/profile-page')) },
        { path: PATHS.security, ...page(() => import('./security-page')) },
        { path: '*', element: <ErrorNotice message="There is no portal page at this address." /> },
      ],
    },
  ],
  { basename: BASENAME },
)

export function PortalApp() {
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  )
}
