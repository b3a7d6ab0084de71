import { lazy, Suspense, type ReactNode } from 'react'
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router'
import { lazyPage as page } from '../shell/lazy-page'
import { SignedInGate } from '../shell/ui'
import { BuyerLayout } from './layout'
import { BASENAME, PATHS } from './paths'
import { SessionProvider, useSession } from './session'
import { SignIn } from './sign-in'
import { ErrorNotice, Loading } from './ui'

// Each page is its own chunk: the sign-in form does not wait for the settings' form.
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
    {
      path: '/',
      element: <SignedInOnly><BuyerLayout /></SignedInOnly>,
      children: [
        { index: true, element: <Navigate to={PATHS.leads} replace /> },
        { path: PATHS.leads, ...page(() => import('./leads/leads-page')) },
        { path: PATHS.lead, ...page(() => import('./leads/lead-page')) },
        { path: PATHS.bids, ...page(() => import('./bids-page')) },
        { path: PATHS.returns, ...page(() => import('./returns-page')) },
        { path: PATHS.billing, ...page(() => import('./billing/billing-page')) },
        { path: PATHS.billingPaid, ...page(() => import('./billing/paid-page')) },
        { path: PATHS.invoices, ...page(() => import('./invoices/invoices-page')) },
        { path: PATHS.invoice, ...page(() => import('./invoices/invoice-page')) },
        { path: PATHS.settings, ...page(() => import('./settings/settings-page')) },
        { path: PATHS.keys, ...page(() => import('./keys-page')) },
        { path: PATHS.security, ...page(() => import('./security-page')) },
        { path: '*', element: <ErrorNotice message="There is no portal page at this address." /> },
      ],
    },
  ],
  { basename: BASENAME },
)

export function BuyerApp() {
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  )
}
