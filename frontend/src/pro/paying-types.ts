// The paying side's shapes, as the portal's offers, credits and ledger API answers them
// (under /api/pro/providers/{id}; docs/portal.md).

export type OfferStatus = 'open' | 'accepted' | 'declined' | 'expired' | 'withdrawn'

export interface OfferSummary {
  id: string
  status: OfferStatus
  exclusive: boolean
  priceCents: number
  vertical: string
  service: string
  serviceName: string
  city: string
  state: string
  zip: string
  createdAt: string
  expiresAt: string
  decidedAt: string | null
  autoAccepted: boolean
}

export interface OfferList {
  items: OfferSummary[]
  nextCursor: string | null
  openCount: number
}

export interface Contact {
  firstName: string
  lastName: string
  email: string
  phone: string
  street: string
  city: string
  state: string
  zip: string
}

export type CreditReason = 'wrong_phone' | 'duplicate' | 'outside_area' | 'wrong_service' | 'competitor_testing' | 'other'
export type CreditStatus = 'pending' | 'approved' | 'denied'

export interface CreditRequestView {
  id: string
  offerId: string | null
  reason: CreditReason
  reasonLabel: string
  detail: string | null
  status: CreditStatus
  amountCents: number
  createdAt: string
  decidedAt: string | null
  decisionNote: string | null
  // Null once the lead was erased.
  serviceName: string | null
  city: string | null
  state: string | null
}

export interface OfferDetail extends OfferSummary {
  answers: { question: string; answer: string }[]
  contact: Contact | null
  reference: string | null
  credit: CreditRequestView | null
  creditableUntil: string | null
  /** The consumer stopped or erased the request after acceptance: contact them no more. */
  consentWithdrawn?: boolean
}

export interface CreditList {
  items: CreditRequestView[]
  capPercent: number
  usedThisMonth: number
  allowedThisMonth: number
}

export interface LedgerEntryView {
  id: string
  kind: 'charge' | 'credit'
  amountCents: number
  description: string
  createdAt: string
  offerId: string | null
}

export interface Statement {
  month: string
  months: string[]
  openingBalanceCents: number
  chargesCents: number
  creditsCents: number
  closingBalanceCents: number
  balanceCents: number
  entries: LedgerEntryView[]
}

/** What the offers' event stream says: one of this provider's offers is new or changed. */
export interface OfferChange {
  id: string
  status: OfferStatus | 'removed'
}
