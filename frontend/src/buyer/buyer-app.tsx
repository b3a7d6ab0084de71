import { createPortalApp } from '../shell/portal-app'
import { lazyPage as page } from '../shell/lazy-page'
import { BuyerLayout } from './layout'
import { BASENAME, PATHS } from './paths'
import { SessionProvider, useSession } from './session'
import { SignIn } from './sign-in'

// Each page is its own chunk: the sign-in form does not wait for the settings' form.
export const BuyerApp = createPortalApp({
  basename: BASENAME,
  paths: PATHS,
  session: { SessionProvider, useSession },
  signIn: <SignIn />,
  choosePassword: () => import('./choose-password-page'),
  forgotPage: () => import('./forgot-page'),
  signInLinkPage: () => import('./sign-in-link-page'),
  layout: <BuyerLayout />,
  home: PATHS.leads,
  pages: [
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
  ],
})
