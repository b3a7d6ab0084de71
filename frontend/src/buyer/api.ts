// The buyer portal's API client (/api/buyer): the shell's session client, its reading hooks.
import { createSessionClient, SessionApiError } from '../shell/session-client'
import { createApiHooks } from '../shell/use-api'

export { SessionApiError as BuyerError }
export { query } from '../shell/use-api'
export type { Page } from '../shell/use-api'

export const API_PREFIX = '/api/buyer'

// Signing in (with a password or a sign-in link) and choosing a password by link answer 401 for a
// refusal, which is no sign-out.
export const client = createSessionClient(API_PREFIX, ['/session', '/session/link/use', '/password'])
export const { request } = client

/** GET a portal path whenever it changes, or a cursor-paged list of one; null waits. */
export const { useApi, usePagedList } = createApiHooks(request)

export const leadPath = (leadId: string, rest = '') => `/leads/${encodeURIComponent(leadId)}${rest}`
