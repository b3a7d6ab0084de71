import { ShieldCheck, Tag, UserRound, Wallet } from 'lucide-react'
import type { NavItem } from '../shell/layout'

// Every portal path in one place (the router mounts them under /pro).
export const BASENAME = '/pro'

export const PATHS = {
  // The first page after signing in: /pro opens the offers.
  home: '/',
  offers: '/offers',
  offer: '/offers/:offerId',
  money: '/money',
  invoice: '/money/invoices/:invoiceId',
  profile: '/profile',
  security: '/security',
  forgot: '/forgot',
  welcome: '/welcome',
  reset: '/reset',
  // The page an e-mailed sign-in link opens (POST /api/pro/session/link).
  signInLink: '/sign-in-link',
  confirmEmail: '/confirm-email',
} as const

export const offerPath = (offerId: string) => `${PATHS.offers}/${encodeURIComponent(offerId)}`
export const invoicePath = (invoiceId: string) => `${PATHS.money}/invoices/${encodeURIComponent(invoiceId)}`

// The portal's navigation: what a provider uses most comes first, under the thumb on a phone.
export const NAV: NavItem[] = [
  { to: PATHS.offers, label: 'Offers', icon: Tag, end: false },
  { to: PATHS.money, label: 'Money', icon: Wallet, end: false },
  { to: PATHS.profile, label: 'Profile', icon: UserRound, end: true },
  { to: PATHS.security, label: 'Security', icon: ShieldCheck, end: false },
]
