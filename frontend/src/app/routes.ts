// Every route path of the site, in one place (spec section 2, route table).
export const paths = {
  home: '/',
  category: (category: string) => `/category/${category}`,
  service: (vertical: string, service: string, state?: string) =>
    `/${vertical}/${service}${state ? `/${state.toLowerCase()}` : ''}`,
  form: (service: string, state?: string) => `/form/${service}${state ? `/${state.toLowerCase()}` : ''}`,
  call: (service: string, state?: string) => `/call/${service}${state ? `/${state.toLowerCase()}` : ''}`,
  callThanks: '/call-thanks',
  thankYou: '/thank-you',
  disqualified: '/disqualified',
  aboutUs: '/about-us',
  partnerWithUs: '/partner-with-us',
  privacyPolicy: '/privacy-policy',
  marketingPartners: '/marketing-partners',
} as const

// Funnel pages get the reduced shell (logo only) so nothing distracts from finishing.
export const FUNNEL_PREFIXES = ['/form', '/call', '/call-thanks', '/thank-you', '/disqualified']

export const isFunnelPath = (pathname: string) =>
  FUNNEL_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
