// Shapes of the operator console API (docs/console-api.md is the contract; the server decides).
// Only the answers the server's OpenAPI schema leaves as untyped objects are written out here; every
// shape the schema names (applications, credits, reviews, invitations) comes from lib/api-schema.ts.

export type Role = 'admin' | 'analyst'

export interface Operator {
  id: number | string
  email: string
  role: Role
  totpEnabled: boolean
}

export interface SessionAnswer {
  operator: Operator
  csrfToken: string
}

export interface KeyCount {
  key: string
  count: number
}

export interface FunnelStep {
  // 'unknown': a step number events carried that the form does not have (now).
  kind: 'page_view' | 'step' | 'unknown' | 'submitted'
  // The catalogue's step number (what events carry); 0 for the page view, null for Submitted.
  step: number | null
  // As the visitor reads it: "Step {number} of {total}"; null outside the form's steps.
  number: number | null
  total: number | null
  // The step's questions as the visitor sees them, or what the entry is.
  title: string
  label: string
  count: number
  dropOffPct: number | null
}

export interface Funnel {
  service: string
  vertical: string
  steps: FunnelStep[]
  submitted: number
  // label: the question as the visitor saw it; step: its step as the visitor numbers it.
  disqualifications: { field: string; label: string; answer: string; step: number | null; count: number }[]
}

/** Deliveries of one kind by status; total includes skipped ones (never sent, on purpose). */
export interface StatusCounts {
  total: number
  delivered: number
  failed: number
  rejected: number
  pending: number
  skipped: number
}

/** The leads' deliveries (to buyers and providers), with receipts and privacy notices apart. */
export interface DeliverySummary extends StatusCounts {
  successRate: number | null
  p50Seconds: number | null
  p99Seconds: number | null
  receipts: StatusCounts
  notices: StatusCounts
}

/** What a delivery carried: the lead itself, the consumer's consent receipt, or a privacy notice. */
export interface Carried {
  payload: 'lead' | 'receipt' | 'lead.revoked' | 'lead.deleted' | 'lead.corrected' | string
  // As an operator reads it: "Lead", "Consent receipt", "Revocation notice", ...
  carried: string
}

export interface Dashboard {
  range: { from: string; to: string }
  leadsPerDay: { day: string; total: number; byVertical: Record<string, number> }[]
  byVertical: KeyCount[]
  byService: KeyCount[]
  byState: KeyCount[]
  bySource: KeyCount[]
  funnels: Funnel[]
  callClicks: { service: string; count: number }[]
  delivery: DeliverySummary
  revenue: Revenue
}

/** Money in cents; a sale counts on the day its lead came in. */
export interface KeyRevenue {
  key: string
  cents: number
  sales: number
}

export interface Revenue {
  cents: number
  sales: number
  leads: number
  earningsPerLeadCents: number | null
  perDay: { day: string; cents: number; sales: number; earningsPerLeadCents: number | null }[]
  byService: KeyRevenue[]
  byState: KeyRevenue[]
  bySource: KeyRevenue[]
  byBuyer: (KeyRevenue & { name: string })[]
}

export interface LeadRow {
  id: number | string
  requestId: string
  createdAt: string
  vertical: string
  service: string
  state: string
  zip: string
  name: string
  email: string
  phone: string
  // subid1, else subid2:<value>, else fbclid, else the lead's own source ("website").
  source: string
  status: string
  isDuplicate: boolean
  doNotSell: boolean
  // The consumer withdrew consent to be contacted, and when.
  revoked: boolean
  revokedAt: string | null
}

export type { Page } from '../shell/use-api'

export interface DeliveryAttempt {
  at: string
  outcome: string
  httpStatus: number | null
  durationMs: number | null
  error: string | null
}

export interface LeadDelivery extends Carried {
  id: number | string
  recipient: string
  channel: string
  status: string
  attempts: DeliveryAttempt[]
}

export interface LeadDetail extends LeadRow {
  answers: Record<string, string>
  consent: {
    text: string
    textSha256: string
    partnersVersion: string | null
    at: string
    ip: string | null
    userAgent: string | null
    pageUrl: string | null
    trustedform: string | null
    gpc: boolean
  } | null
  privacy: { doNotSell: boolean; gpc: boolean; revokedAt?: string | null; deletedAt?: string | null }
  deliveries: LeadDelivery[]
  deliveryCounts: { leads: StatusCounts; receipts: StatusCounts; notices: StatusCounts }
  // Empty when the lead had no auction (no buyer qualified, or routing has not run yet).
  auction: AuctionStep[]
}

export interface AuctionStep {
  kind: 'ping' | 'bid' | 'pass' | 'outcome' | 'post' | 'accepted' | 'refused' | 'closed' | string
  atMs: number
  buyer: string | null
  amount: number | null
  exclusive: boolean | null
  detail: string | null
}

export interface DeliveryRow extends Carried {
  id: number | string
  leadId: number | string
  requestId: string
  recipient: string
  channel: string
  status: string
  attempts: number
  lastError: string | null
  nextAttemptAt: string | null
}

export interface Provider {
  id: number | string
  name: string
  email: string | null
  webhookUrl: string | null
  hasWebhookSecret?: boolean
  services: string[]
  states: string[]
  zips: string[]
  radiusMiles: number | null
  dailyCap: number | null
  active: boolean
  // Set by the delivery worker while the provider's endpoint keeps failing.
  paused?: boolean
  leadsToday: number
  // The portal: 'review' for providers who joined through it (offers, once built); who paused it.
  mode?: 'direct' | 'review'
  pausedBy?: 'operator' | 'provider' | null
  licenceNumber?: string | null
  licenceState?: string | null
  verified?: boolean
  portalAccount?: 'none' | 'invited' | 'active'
  // What one accepted lead costs it (null: the service's list price); its monthly credit cap, a percent.
  leadPriceCents?: number | null
  creditCapPercent?: number
}

export interface Buyer {
  id: string
  name: string
  active: boolean
  postUrl: string
  pingUrl: string | null
  mode: 'ping-post' | 'fixed price'
  exclusive: boolean
  price: number | null
  services: string[]
  states: string[]
  zips: string[]
  dailyCap: number | null
  monthlyBudget: number | null
  hours: string | null
  leadsToday: number
  spentThisMonth: number
}

export interface BuyerBid {
  leadId: string
  requestId: string
  service: string
  state: string | null
  kind: 'bid' | 'pass' | string
  amount: number | null
  reason: string | null
  atMs: number
  at: string | null
}

export interface AuditEntry {
  at: string
  operator: string | null
  action: string
  target: string | null
  ip: string | null
  detail: unknown
}
