import { Gavel, KeyRound, ListChecks, SlidersHorizontal, ShieldCheck, Undo2, Wallet } from 'lucide-react'
import type { NavItem } from '../shell/layout'

// Every buyer portal path in one place (the router mounts them under /buyer).
export const BASENAME = '/buyer'

export const PATHS = {
  // The first page after signing in: /buyer opens the leads bought.
  home: '/',
  leads: '/leads',
  lead: '/leads/:leadId',
  bids: '/bids',
  returns: '/returns',
  billing: '/billing',
  // Where Stripe's Checkout returns (?payment=<id>).
  billingPaid: '/billing/paid',
  invoices: '/invoices',
  invoice: '/invoices/:invoiceId',
  settings: '/settings',
  keys: '/keys',
  security: '/security',
  forgot: '/forgot',
  // The pages the mailed links open (an invitation, a password link, a sign-in link).
  welcome: '/welcome',
  reset: '/reset',
  signInLink: '/sign-in-link',
} as const

export const leadPagePath = (leadId: string) => `${PATHS.leads}/${encodeURIComponent(leadId)}`
export const invoicePagePath = (invoiceId: string) => `${PATHS.invoices}/${encodeURIComponent(invoiceId)}`

// The portal's navigation: what a buyer uses most comes first, under the thumb on a phone. Seven
// fit a 390 px bar; the invoices are reached from Billing (and the e-mail that sends each one).
export const NAV: NavItem[] = [
  { to: PATHS.leads, label: 'Leads', icon: ListChecks, end: false },
  { to: PATHS.bids, label: 'Bids', icon: Gavel, end: true },
  { to: PATHS.returns, label: 'Returns', icon: Undo2, end: true },
  { to: PATHS.billing, label: 'Billing', icon: Wallet, end: false },
  { to: PATHS.settings, label: 'Settings', icon: SlidersHorizontal, end: true },
  { to: PATHS.keys, label: 'API keys', icon: KeyRound, end: true },
  { to: PATHS.security, label: 'Security', icon: ShieldCheck, end: true },
]
