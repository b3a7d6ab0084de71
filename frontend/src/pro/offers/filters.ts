// The offers list's tabs and what each offer's state means in plain words.
import type { OfferStatus, OfferSummary } from '../paying-types'

export type Tab = 'open' | 'accepted' | 'closed'

export const TABS: { key: Tab; label: string; empty: string }[] = [
  { key: 'open', label: 'Open', empty: 'No open offers right now. New ones appear here as soon as they are made, and we e-mail you each one.' },
  { key: 'accepted', label: 'Accepted', empty: 'No accepted leads yet. Accept an open offer to see the customer’s contact details.' },
  { key: 'closed', label: 'Closed', empty: 'No closed offers: those you declined, those that expired and those the customer withdrew show here.' },
]

/** The tab asked for in the address, or Open. */
export function tabFrom(value: string | null): Tab {
  return TABS.some((tab) => tab.key === value) ? (value as Tab) : 'open'
}

/** The tab an offer of this status is listed under. */
export function tabOf(status: OfferStatus): Tab {
  if (status === 'open') return 'open'
  if (status === 'accepted') return 'accepted'
  return 'closed'
}

/** Open and still within its time: only then can it be accepted (the server may not have marked it
 * expired yet when its time ran out a moment ago). */
export function canAccept(offer: Pick<OfferSummary, 'status' | 'expiresAt'>, now: number): boolean {
  return offer.status === 'open' && Date.parse(offer.expiresAt) > now
}

/** The offer's state in a word or two, for its card and page. */
export function stateLabel(offer: Pick<OfferSummary, 'status' | 'expiresAt' | 'autoAccepted'>, now: number): string {
  switch (offer.status) {
    case 'open':
      return canAccept(offer, now) ? 'Open' : 'Expired'
    case 'accepted':
      return offer.autoAccepted ? 'Accepted automatically' : 'Accepted'
    case 'declined':
      return 'Declined'
    case 'expired':
      return 'Expired'
    case 'withdrawn':
      return 'Withdrawn'
  }
}

/** What a closed offer means for the provider, said plainly. */
export function closedExplanation(offer: Pick<OfferSummary, 'status' | 'expiresAt'>, now: number): string | null {
  if (offer.status === 'declined') return 'You declined this offer. It cost you nothing.'
  if (offer.status === 'withdrawn') {
    return 'The customer withdrew this request before you accepted it. It cost you nothing, and their details were never shared.'
  }
  if (offer.status === 'expired' || (offer.status === 'open' && !canAccept(offer, now))) {
    return 'This offer expired: it was not accepted in time. It cost you nothing.'
  }
  return null
}

/** Whether a credit may still be asked for on an accepted lead. */
export function canRequestCredit(
  offer: { status: OfferStatus; credit: unknown; creditableUntil: string | null },
  now: number,
): boolean {
  return offer.status === 'accepted' && offer.credit === null && offer.creditableUntil !== null
    && Date.parse(offer.creditableUntil) > now
}
