// The portal's API client (/api/pro, backend/servicematch/portal/router.py) and its shapes, from
// the server's OpenAPI schema (lib/api-schema.ts).
import type { components } from '../lib/api-schema'
import { createSessionClient, SessionApiError } from '../shell/session-client'

type Schemas = components['schemas']

export type PortalSession = Schemas['PortalSession']
export type Profile = Schemas['ProviderProfile']
export type ProfileChanges = Schemas['ProviderProfileChanges']
export type Hours = Schemas['ProviderHours']
export type Day = Hours['days'][number]
export type TimeZone = Hours['timeZone']

export { SessionApiError as PortalError }

// Signing in (with a password or a sign-in link) and choosing a password by link answer 401 for a
// refusal, which is no sign-out.
export const client = createSessionClient('/api/pro', ['/session', '/session/link/use', '/password'])
export const { request } = client

/** Everything about a provider lives under its own id; the server answers 404 for any other. */
export const providerPath = (id: string, rest = '') => `/providers/${encodeURIComponent(id)}${rest}`
