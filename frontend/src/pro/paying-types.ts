// The paying side's shapes, as the portal's offers, credits and ledger API answers them
// (under /api/pro/providers/{id}; docs/portal.md), from the server's OpenAPI schema (lib/api-schema.ts).
import type { components } from '../lib/api-schema'

type Schemas = components['schemas']

export type OfferSummary = Schemas['OfferSummary']
export type OfferStatus = OfferSummary['status']
export type OfferList = Schemas['OfferList']
export type Contact = Schemas['OfferContact']
export type CreditRequestView = Schemas['CreditRequestView']
export type CreditReason = CreditRequestView['reason']
export type CreditStatus = CreditRequestView['status']
export type OfferDetail = Schemas['OfferDetail']
export type CreditList = Schemas['CreditList']
export type LedgerEntryView = Schemas['LedgerLine']
export type Statement = Schemas['LedgerStatement']

/** What the offers' event stream says: one of this provider's offers is new or changed. */
export interface OfferChange {
  id: string
  status: OfferStatus | 'removed'
}
