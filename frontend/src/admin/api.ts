// The console's one API client (shell/session-client.ts): cookie session, CSRF header on every change.
import { createSessionClient, SessionApiError } from '../shell/session-client'

export { SessionApiError as ConsoleError }
export { query } from '../shell/use-api'

export const client = createSessionClient('/api/console')
export const { request, setCsrfToken, setSignedOutHandler } = client
