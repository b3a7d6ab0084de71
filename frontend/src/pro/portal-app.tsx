import { createPortalApp } from '../shell/portal-app'
import { lazyPage as page } from '../shell/lazy-page'
import { PortalLayout } from './layout'
import { BASENAME, PATHS } from './paths'
import { SessionProvider, useSession } from './session'
import { SignIn } from './sign-in'

// Each page is its own chunk: the sign-in form does not wait for the profile's form.
export const PortalApp = createPortalApp({
  basename: BASENAME,
  paths: PATHS,
  session: { SessionProvider, useSession },
  signIn: <SignIn />,
  choosePassword: () => import('./choose-password-page'),
  forgotPage: () => import('./forgot-page'),
  signInLinkPage: () => import('./sign-in-link-page'),
  publicRoutes: [{ path: PATHS.confirmEmail, ...page(() => import('./confirm-email-page')) }],
  layout: <PortalLayout />,
  home: PATHS.offers,
  pages: [
    { path: PATHS.offers, ...page(() => import('./offers/offers-page')) },
    { path: PATHS.offer, ...page(() => import('./offers/offer-page')) },
    { path: PATHS.money, ...page(() => import('./money/money-page')) },
    { path: PATHS.invoice, ...page(() => import('./money/invoices-page')) },
    { path: PATHS.profile, ...page(() => import('./profile/profile-page')) },
    { path: PATHS.security, ...page(() => import('./security-page')) },
  ],
})
