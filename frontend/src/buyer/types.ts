// The buyer portal's shapes, as /api/buyer answers them (backend/servicematch/buyer/router*.py).
// Money is in dollars, times are ISO 8601 in UTC.

export interface BuyerPortalSession {
  account: { id: string; email: string; totpEnabled: boolean }
  buyer: { id: string; name: string }
  csrfToken: string
}

export type LeadStatus = 'sold' | 'returned' | 'return_pending' | 'return_denied'
export type FeedbackStatus = 'contacted' | 'appointment' | 'quoted' | 'sold' | 'bad'
export type ReturnReason = 'wrong_phone' | 'duplicate' | 'fraud' | 'under_18' | 'outside_filters' | 'other'
export type ReturnStatus = 'pending' | 'approved' | 'denied'

export interface BuyerLeadRow {
  id: string
  reference: string
  boughtAt: string
  vertical: string
  service: string
  serviceName: string
  state: string | null
  zip: string | null
  price: number
  exclusive: boolean
  status: LeadStatus
  // The latest feedback given on the lead.
  feedback: FeedbackStatus | null
}

export interface LeadContact {
  firstName: string
  lastName: string
  email: string | null
  phone: string
  address: string | null
  city: string | null
  state: string | null
  zip: string | null
}

/** The consent proof as the lead's post carried it. */
export interface ConsentProof {
  text: string | null
  sha256: string | null
  consentedAt: string | null
  ip: string | null
  userAgent: string | null
  pageUrl: string | null
  trustedFormCertUrl: string | null
  globalPrivacyControl: boolean
  doNotSell: boolean
  partnerListVersion: string | null
}

export interface DeliveryAttempt {
  at: string
  httpStatus: number | null
  durationMs: number | null
  // The first bytes of the buyer's answer.
  answerStart: string | null
  outcome: string
}

export interface ReturnInfo {
  returnableUntil: string | null
  canReturn: boolean
  // Why it cannot be returned, in words (window passed, share used up, no returns...).
  problem: string | null
}

export interface BuyerReturn {
  id: string
  leadId: string
  leadReference: string | null
  reason: ReturnReason
  note: string | null
  status: ReturnStatus
  price: number
  createdAt: string
  requestedBy: string
  decidedBy: string | null
  decidedAt: string | null
  decisionNote: string | null
}

export interface BuyerFeedback {
  status: FeedbackStatus
  reason: string | null
  note: string | null
  source: 'portal' | 'api'
  givenBy: string
  createdAt: string
}

export interface BuyerLead extends Omit<BuyerLeadRow, 'feedback'> {
  // The consumer stopped the request, or its personal data was erased: no contact, then.
  withdrawn: { kind: 'stopped' | 'erased'; at: string } | null
  contact: LeadContact | null
  answers: { question: string; answer: string }[]
  consent: ConsentProof | null
  attempts: DeliveryAttempt[]
  returnInfo: ReturnInfo
  lodgedReturn: BuyerReturn | null
  feedback: BuyerFeedback[]
}

export interface BidRow {
  leadReference: string
  at: string
  service: string
  state: string | null
  result: 'won' | 'lost on price' | 'passed' | 'refused' | 'posted' | 'pending' | 'not posted'
  bid: number | null
  reason: string | null
  winningPrice: number | null
}

export interface BuyerSettings {
  name: string
  mode: 'ping-post' | 'fixed price'
  pingUrl: string | null
  postUrl: string
  services: string[]
  states: string[]
  zips: string[]
  dailyCap: number | null
  monthlyBudget: number | null
  hours: string | null
  paused: boolean
  bidFloor: number | null
  price: number | null
  exclusive: boolean
  // Settings the operator locked: shown, never sent.
  locked: string[]
  returnWindowDays: number
  maxReturnPercent: number | null
  // Its own rules: the least quality score of a lead it is pinged for (null: any), and its
  // duplicate rule's window in days (null: ServiceMatch's rule), same person by, and reach.
  minQuality: number | null
  duplicateDays: number | null
  duplicateMatch: 'phone' | 'email' | 'either'
  duplicateScope: 'service' | 'all'
  // While set, the previous signing secret still verifies.
  secretOverlapUntil: string | null
}

export interface UrlTest {
  kind: 'ping' | 'post'
  url: string
  ok: boolean
  httpStatus: number | null
  durationMs: number | null
  error: string | null
}

export interface UrlsSaved {
  settings: BuyerSettings
  tests: UrlTest[]
}

export interface RotatedSecret {
  secret: string
  previousValidUntil: string
}

export interface AuditEntry {
  at: string | null
  who: string
  action: string
  // What changed: a field's [old, new] values, or facts about the change.
  detail: Record<string, unknown>
}

export interface Person {
  id: string
  email: string
  active: boolean
  hasPassword: boolean
  createdAt: string
}

export interface ApiKey {
  id: string
  name: string
  prefix: string
  createdBy: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

export interface NewApiKey {
  key: ApiKey
  secret: string
}

export interface Items<T> {
  items: T[]
}
