// The public site's paths, for links from any part of it (the route table itself is
// backend/servicematch/web/routes.json; app/routes.ts matches against it).
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
