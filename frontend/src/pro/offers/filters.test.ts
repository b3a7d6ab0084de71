import { describe, expect, it } from 'vitest'
import type { OfferStatus } from '../paying-types'
import { canAccept, canRequestCredit, closedExplanation, stateLabel, tabFrom, tabOf } from './filters'

const NOW = Date.parse('2026-11-26T15:00:00Z')
const LATER = '2026-11-26T16:00:00Z'
const EARLIER = '2026-11-26T14:00:00Z'
const offer = (status: OfferStatus, expiresAt = LATER, autoAccepted = false) => ({ status, expiresAt, autoAccepted })

describe('tabs', () => {
  it('reads the tab from the address, Open for anything else', () => {
    expect(tabFrom('accepted')).toBe('accepted')
    expect(tabFrom('closed')).toBe('closed')
    expect(tabFrom(null)).toBe('open')
    expect(tabFrom('all')).toBe('open')
  })

  it('lists declined, expired and withdrawn offers under Closed', () => {
    expect((['open', 'accepted', 'declined', 'expired', 'withdrawn'] as const).map(tabOf))
      .toEqual(['open', 'accepted', 'closed', 'closed', 'closed'])
  })
})

describe('an offer’s state', () => {
  it('can be accepted only while open and within its time', () => {
    expect(canAccept(offer('open'), NOW)).toBe(true)
    expect(canAccept(offer('open', EARLIER), NOW)).toBe(false)
    expect(canAccept(offer('accepted'), NOW)).toBe(false)
    expect(canAccept(offer('declined'), NOW)).toBe(false)
  })

  it('is said in plain words', () => {
    expect(stateLabel(offer('open'), NOW)).toBe('Open')
    expect(stateLabel(offer('open', EARLIER), NOW)).toBe('Expired')
    expect(stateLabel(offer('accepted', LATER, true), NOW)).toBe('Accepted automatically')
    expect(stateLabel(offer('withdrawn'), NOW)).toBe('Withdrawn')
    expect(closedExplanation(offer('withdrawn'), NOW)).toMatch(/customer withdrew/)
    expect(closedExplanation(offer('open', EARLIER), NOW)).toMatch(/expired/)
    expect(closedExplanation(offer('expired'), NOW)).toMatch(/cost you nothing/)
    expect(closedExplanation(offer('open'), NOW)).toBeNull()
    expect(closedExplanation(offer('accepted'), NOW)).toBeNull()
  })

  it('allows a credit request once, on an accepted lead, within the window', () => {
    const accepted = { status: 'accepted' as const, credit: null, creditableUntil: LATER }
    expect(canRequestCredit(accepted, NOW)).toBe(true)
    expect(canRequestCredit({ ...accepted, creditableUntil: EARLIER }, NOW)).toBe(false)
    expect(canRequestCredit({ ...accepted, credit: { id: 'c1' } }, NOW)).toBe(false)
    expect(canRequestCredit({ ...accepted, status: 'declined' }, NOW)).toBe(false)
    expect(canRequestCredit({ ...accepted, creditableUntil: null }, NOW)).toBe(false)
  })
})
