// Every console path in one place (the router mounts them under /admin).
export const BASENAME = '/admin'

export const PATHS = {
  dashboard: '/',
  leads: '/leads',
  lead: (id: string | number) => `/leads/${encodeURIComponent(String(id))}`,
  deliveries: '/deliveries',
  providers: '/providers',
  applications: '/applications',
  buyers: '/buyers',
  credits: '/credits',
  returns: '/returns',
  invoices: '/invoices',
  conversion: '/conversion',
  reviews: '/reviews',
  money: '/money',
  moneyAccount: (id: string) => `/money/accounts/${encodeURIComponent(id)}`,
  audit: '/audit',
  // The page an e-mailed sign-in link opens (POST /api/console/session/link).
  signInLink: '/sign-in-link',
} as const
