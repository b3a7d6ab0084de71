// Sending a finished questionnaire (POST /api/submit-form or /api/call-submit): what the answer means.
import type { LeadAccepted } from '../lib/types'

/** What an accepted submission tells the thank-you page: the reference to show, and the request id
 * and status token with which it asks what became of the request. */
export type Accepted = Pick<LeadAccepted, 'requestId' | 'reference' | 'statusToken'>

export type SubmitResult =
  | { ok: true; accepted: Accepted }
  // status 0: the request never got an answer (offline, timeout). retryAfterSeconds: from a 429 or 503.
  | { ok: false; status: number; fields: Record<string, string>; retryAfterSeconds: number | null }

export async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  })
}

function retryAfter(response: Response): number | null {
  const seconds = Number(response.headers.get('Retry-After'))
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null
}

/** Sends a lead to `path`, the endpoint of the flow that built the payload. */
export async function submitLead(payload: object, path: string): Promise<SubmitResult> {
  try {
    const response = await postJson(path, payload)
    const body = (await response.json().catch(() => ({}))) as Partial<Accepted> & { fields?: Record<string, string> }
    if (response.ok || response.status === 202) {
      const { requestId = '', reference = '', statusToken = '' } = body
      return { ok: true, accepted: { requestId, reference, statusToken } }
    }
    return { ok: false, status: response.status, fields: body.fields ?? {}, retryAfterSeconds: retryAfter(response) }
  } catch (error) {
    console.error('Lead submission failed', error)
    return { ok: false, status: 0, fields: {}, retryAfterSeconds: null }
  }
}

/** A fresh request id; randomUUID is missing outside secure contexts, so fall back to random bytes. */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = (bytes[6] & 0x0f) | 0x40
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
