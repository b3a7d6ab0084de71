import { matchRoutes } from 'react-router'
import manifest from '../../../backend/servicematch/web/routes.json'

// Path builders for links (the route table itself is backend/servicematch/web/routes.json).
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
  terms: '/terms',
  privacyRequests: '/privacy/requests',
  privacyChoices: '/privacy/choices',
  privacyStop: '/privacy/stop',
  review: '/review',
  marketingPartners: '/marketing-partners',
} as const

// Funnel pages get the reduced shell (logo only) so nothing distracts from finishing.
const funnelRoutes = manifest.routes.filter((route) => route.funnel).map((route) => ({ path: route.path }))

export const isFunnelPath = (pathname: string) => (matchRoutes(funnelRoutes, pathname)?.length ?? 0) > 0
