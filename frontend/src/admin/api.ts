// The console's one API client (shell/session-client.ts): cookie session, CSRF header on every change.
import { createSessionClient, SessionApiError } from '../shell/session-client'

export { SessionApiError as ConsoleError }
export { query } from '../shell/use-api'

// Signing in, with a password or a sign-in link, answers 401 for a refusal, which is no sign-out.
export const client = createSessionClient('/api/console', ['/session', '/session/link/use'])
export const { request, setCsrfToken, setSignedOutHandler } = client
