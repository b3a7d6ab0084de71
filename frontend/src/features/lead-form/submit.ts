// POST /api/submit-form: success is any OK answer or 202; the body of a success is not read.
import type { LeadPayload } from './payload'

export type SubmitResult =
  | { ok: true }
  | { ok: false; status: number; fields: Record<string, string> }

export async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  })
}

export async function submitLead(payload: LeadPayload): Promise<SubmitResult> {
  try {
    const response = await postJson('/api/submit-form', payload)
    if (response.ok || response.status === 202) return { ok: true }
    const body = (await response.json().catch(() => ({}))) as { fields?: Record<string, string> }
    return { ok: false, status: response.status, fields: body.fields ?? {} }
  } catch (error) {
    console.error('Lead submission failed', error)
    return { ok: false, status: 0, fields: {} }
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
