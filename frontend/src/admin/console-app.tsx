import { createBrowserRouter, Navigate, RouterProvider } from 'react-router'
import { lazyPage as page } from '../shell/lazy-page'
import { SignedInGate } from '../shell/ui'
import { ConsoleLayout } from './layout'
import { BASENAME, PATHS } from './paths'
import { SessionProvider, useSession } from './session'
import { SignIn } from './sign-in'
import { SignInLinkPage } from './sign-in-link-page'
import { ErrorNotice } from './ui'

// Each page is its own chunk: the sign-in form does not wait for the charting library.
const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <ConsoleLayout />,
      children: [
        { index: true, ...page(() => import('./dashboard/dashboard-page')) },
        { path: PATHS.leads, ...page(() => import('./leads/leads-page')) },
        { path: `${PATHS.leads}/:id`, ...page(() => import('./leads/lead-page')) },
        { path: PATHS.held, ...page(() => import('./held/held-leads-page')) },
        { path: PATHS.quality, ...page(() => import('./quality/quality-page')) },
        { path: PATHS.suppression, ...page(() => import('./suppression/suppression-page')) },
        { path: PATHS.deliveries, ...page(() => import('./deliveries-page')) },
        { path: PATHS.providers, ...page(() => import('./providers/providers-page')) },
        { path: PATHS.applications, ...page(() => import('./applications/applications-page')) },
        { path: PATHS.buyers, ...page(() => import('./buyers/buyers-page')) },
        { path: PATHS.credits, ...page(() => import('./credits/credits-page')) },
        { path: PATHS.returns, ...page(() => import('./returns/returns-page')) },
        { path: PATHS.invoices, ...page(() => import('./invoices/invoices-page')) },
        { path: PATHS.conversion, ...page(() => import('./conversion/conversion-page')) },
        { path: PATHS.reviews, ...page(() => import('./reviews/reviews-page')) },
        { path: PATHS.money, ...page(() => import('./money/money-page')) },
        { path: `${PATHS.money}/accounts/:id`, ...page(() => import('./money/account-page')) },
        { path: PATHS.audit, ...page(() => import('./audit-page')) },
        // Signed in by the link (or already), its page has nothing more to do.
        { path: PATHS.signInLink, element: <Navigate to={PATHS.dashboard} replace /> },
        { path: '*', element: <ErrorNotice message="There is no console page at this address." /> },
      ],
    },
  ],
  { basename: BASENAME },
)

function Gate() {
  const { session, checking } = useSession()
  // Signed out, every address shows the sign-in form, but an e-mailed sign-in link's own page.
  const signIn = window.location.pathname === `${BASENAME}${PATHS.signInLink}` ? <SignInLinkPage /> : <SignIn />
  return (
    <SignedInGate checking={checking} signedIn={session !== null} signIn={signIn}>
      <RouterProvider router={router} />
    </SignedInGate>
  )
}

export function ConsoleApp() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  )
}
