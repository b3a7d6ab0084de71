// Calls of the privacy API (backend/servicematch/privacy/router.py); every refusal keeps its message.

export type RightKind = 'access' | 'delete' | 'correct' | 'opt_out' | 'stop'

export interface Started {
  requestId: string
  message: string
}

export interface Verified {
  kind: RightKind
  requestId: string
  message: string
  report?: AccessReport | null
}

export interface AccessReport {
  generatedAt: string
  business: string
  leads: ReportLead[]
  privacyRequests: { kind: string; receivedAt: string; verifiedAt: string | null; closedAt: string | null; outcome: string | null }[]
}

export interface ReportLead {
  requestId: string
  submittedAt: string
  service: string
  category: string
  contact: Record<string, string>
  answers: Record<string, string>
  // The same, under the questions' labels as the form showed them.
  inWords: { question: string; answer: string }[]
  doNotSell: boolean
  consent: { text: string; givenAt: string; pageUrl: string | null; ipAddress: string | null } | null
  revoked: { at: string; how: string } | null
  erased: { at: string; why: string } | null
  deliveries: { recipient: string; channel: string; what: string; status: string; receivedAt: string | null }[]
}

export interface StopPreview {
  requests: { service: string; submittedAt: string; stopped: boolean }[]
  recipients: string[]
  alreadyStopped: boolean
}

export interface Stopped {
  message: string
  stopped: number
}

export interface Failure {
  status: number
  error: string
  fields: Record<string, string>
}

export type Answer<T> = { ok: true; data: T } | { ok: false; failure: Failure }

const OFFLINE = 'We could not reach the server. Check your connection and try again.'

async function post<T>(path: string, body: unknown): Promise<Answer<T>> {
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

export const startRequest = (body: { kind: RightKind; email?: string; phone?: string; correction?: string }) =>
  post<Started>('/api/privacy/requests', body)

export const verifyRequest = (requestId: string, code: string) =>
  post<Verified>(`/api/privacy/requests/${encodeURIComponent(requestId)}/verify`, { code })

export const previewStop = (token: string) => post<StopPreview>('/api/privacy/stop/preview', { token })

export const stopNow = (token: string) => post<Stopped>('/api/privacy/stop', { token })
