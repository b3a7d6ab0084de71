// Every console path in one place (the router mounts them under /admin).
export const BASENAME = '/admin'

export const PATHS = {
  dashboard: '/',
  leads: '/leads',
  lead: (id: string | number) => `/leads/${encodeURIComponent(String(id))}`,
  // Leads the quality gate held for review, and the quality measures (docs/quality.md).
  held: '/held',
  quality: '/quality',
  // Phones and e-mails no buyer (or one buyer) is sold (docs/quality.md, "Suppression lists").
  suppression: '/suppression',
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
