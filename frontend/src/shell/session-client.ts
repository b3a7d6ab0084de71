// A signed-in API client: the cookie session, the CSRF header on every change, one error shape.
// Each signed-in app (the operator console's /api/console, the provider portal's /api/pro) makes its own.

export class SessionApiError extends Error {
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

function messageFor(status: number, body: Record<string, unknown>, response: Response): string {
  if (typeof body.error === 'string' && body.error) return body.error
  if (status === 429) {
    const wait = response.headers.get('Retry-After')
    return wait ? `Too many attempts. Try again in ${wait} seconds.` : 'Too many attempts. Try again later.'
  }
  if (status === 403) return 'Your role does not allow this.'
  if (status === 404) return 'Not found.'
  if (status >= 500) return 'The server had a problem. Try again in a moment.'
  return response.statusText || `Request failed (${status})`
}

export interface SessionClient {
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>
  /** The session's CSRF token, sent as X-CSRF-Token on every non-GET call. */
  setCsrfToken: (token: string) => void
  /** Called when the server answers 401 to a signed-in call (the session expired or was ended). */
  setSignedOutHandler: (handler: () => void) => void
}

/** A client for the API under `prefix`; a 401 from one of `signInPaths` is a refused sign-in, not a sign-out. */
export function createSessionClient(prefix: string, signInPaths: string[] = ['/session']): SessionClient {
  let csrfToken = ''
  let onSignedOut: () => void = () => {}

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(`${prefix}${path}`, {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch {
      throw new SessionApiError(0, 'The server could not be reached. Check the connection and try again.')
    }
    if (response.status === 204) return undefined as T
    const data = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      if (response.status === 401 && !signInPaths.includes(path)) onSignedOut()
      throw new SessionApiError(response.status, messageFor(response.status, data, response), data)
    }
    return data as T
  }

  return {
    request,
    setCsrfToken: (token) => void (csrfToken = token),
    setSignedOutHandler: (handler) => void (onSignedOut = handler),
  }
}
