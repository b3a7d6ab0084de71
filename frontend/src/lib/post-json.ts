// A JSON POST to the site's own API: the answer, or the refusal with its message and per-field messages.

export interface Failure {
  status: number
  error: string
  fields: Record<string, string>
}

export type Answer<T> = { ok: true; data: T } | { ok: false; failure: Failure }

const OFFLINE = 'We could not reach the server. Check your connection and try again.'

export async function postJson<T>(path: string, body: unknown): Promise<Answer<T>> {
  let response: Response
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    })
  } catch {
    return { ok: false, failure: { status: 0, error: OFFLINE, fields: {} } }
  }
  const data = await response.json().catch(() => ({}))
  if (response.ok) return { ok: true, data: data as T }
  const error = typeof data.error === 'string' ? data.error : `Something went wrong (${response.status}). Please try again.`
  return { ok: false, failure: { status: response.status, error, fields: data.fields ?? {} } }
}
