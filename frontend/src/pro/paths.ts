import { ShieldCheck, UserRound, type LucideIcon } from 'lucide-react'

// Every portal path in one place (the router mounts them under /pro).
export const BASENAME = '/pro'

export const PATHS = {
  profile: '/',
  security: '/security',
  forgot: '/forgot',
  welcome: '/welcome',
  reset: '/reset',
  confirmEmail: '/confirm-email',
} as const

// The portal's navigation shows what works today; offers, leads and the ledger join it here as
// they are built.
export const NAV: { to: string; label: string; icon: LucideIcon; end: boolean }[] = [
  { to: PATHS.profile, label: 'Profile', icon: UserRound, end: true },
  { to: PATHS.security, label: 'Security', icon: ShieldCheck, end: false },
]
