// The console's one API client (lib/session-client.ts): cookie session, CSRF header on every change.
import { createSessionClient, SessionApiError } from '../lib/session-client'

export { SessionApiError as ConsoleError }

export const client = createSessionClient('/api/console')
export const { request, setCsrfToken, setSignedOutHandler } = client

/** A query string from filters, leaving out empty values. */
export function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}
