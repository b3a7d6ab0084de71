// Calls of the privacy API (backend/servicematch/privacy/router.py); every refusal keeps its message.
import { postJson as post } from '../../lib/post-json'

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
  /** Exactly the companies the contact details reached, whatever they answered. */
  receivedBy: string[]
  /** The same companies, each with what it did with the details, in words. */
  companies?: ReportCompany[]
  deliveries: { recipient: string; channel: string; what: string; status: string; receivedAt: string | null }[]
}

export interface ReportCompany {
  name: string
  did: 'bought' | 'received' | 'accepted' | 'sending' | 'refused' | 'late'
  toldToDiscard: boolean
  inWords: string
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

export const startRequest = (body: { kind: RightKind; email?: string; phone?: string; correction?: string }) =>
  post<Started>('/api/privacy/requests', body)

export const verifyRequest = (requestId: string, code: string) =>
  post<Verified>(`/api/privacy/requests/${encodeURIComponent(requestId)}/verify`, { code })

export const previewStop = (token: string) => post<StopPreview>('/api/privacy/stop/preview', { token })

export const stopNow = (token: string) => post<Stopped>('/api/privacy/stop', { token })
