// The console's one API client: cookie session, CSRF header on every change, one error shape.

export class ConsoleError extends Error {
  status: number
  fields: Record<string, string>
  body: Record<string, unknown>
  constructor(status: number, message: string, body: Record<string, unknown> = {}) {
    super(message)
    this.status = status
    this.body = body
    this.fields = (body.fields as Record<string, string> | undefined) ?? {}
  }
}

let csrfToken = ''
let onSignedOut: () => void = () => {}

/** The session's CSRF token, sent as X-CSRF-Token on every non-GET call. */
export function setCsrfToken(token: string) {
  csrfToken = token
}

/** Called when the server answers 401 to a signed-in call (the session expired or was ended). */
export function setSignedOutHandler(handler: () => void) {
  onSignedOut = handler
}

function messageFor(status: number, body: Record<string, unknown>, response: Response): string {
  if (typeof body.error === 'string' && body.error) return body.error
  if (status === 429) {
    const wait = response.headers.get('Retry-After')
    return wait ? `Too many attempts. Try again in ${wait} seconds.` : 'Too many attempts. Try again later.'
  }
  if (status === 403) return 'Your role does not allow this.'
  if (status >= 500) return 'The server had a problem. Try again in a moment.'
  return response.statusText || `Request failed (${status})`
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(`/api/console${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ConsoleError(0, 'The server could not be reached. Check the connection and try again.')
  }
  if (response.status === 204) return undefined as T
  const data = (await response.json().catch(() => ({}))) as Record<string, unknown>
  if (!response.ok) {
    if (response.status === 401 && path !== '/session') onSignedOut()
    throw new ConsoleError(response.status, messageFor(response.status, data, response), data)
  }
  return data as T
}

/** A query string from filters, leaving out empty values. */
export function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}
