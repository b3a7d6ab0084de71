import { describe, expect, it } from 'vitest'
import type { BuyerSettings } from '../types'
import { changes, draftOf, problems } from './settings-draft'

const SETTINGS: BuyerSettings = {
  name: 'Lead Co', mode: 'ping-post', pingUrl: 'https://leadco.example/ping', postUrl: 'https://leadco.example/post',
  services: ['hvac', 'roofing'], states: ['TX'], zips: ['78701', '78702'], dailyCap: 50, monthlyBudget: 2000, hours: null,
  paused: false, bidFloor: 12.5, price: null, exclusive: true, locked: [], returnWindowDays: 7, maxReturnPercent: 15,
  minQuality: null, duplicateDays: null, duplicateMatch: 'phone', duplicateScope: 'service', secretOverlapUntil: null,
}

describe('the settings draft', () => {
  it('sends nothing when nothing changed, lists in any order included', () => {
    const draft = { ...draftOf(SETTINGS), services: ['roofing', 'hvac'], zips: '78702 78701' }
    expect(changes(SETTINGS, draft)).toEqual({})
  })

  it('sends only what changed, empty numbers as no limit', () => {
    const draft = { ...draftOf(SETTINGS), dailyCap: '75', monthlyBudget: '', hours: ' Mon-Fri 08:00-18:00 America/Chicago ' }
    expect(changes(SETTINGS, draft)).toEqual({ dailyCap: 75, monthlyBudget: null, hours: 'Mon-Fri 08:00-18:00 America/Chicago' })
  })

  it('never sends a locked field, nor the price of a buyer that bids', () => {
    const locked = { ...SETTINGS, locked: ['bidFloor', 'dailyCap'] }
    const draft = { ...draftOf(locked), dailyCap: '1', bidFloor: '99', price: '40', states: ['TX', 'OK'] }
    expect(changes(locked, draft)).toEqual({ states: ['TX', 'OK'] })
    const fixed = { ...SETTINGS, mode: 'fixed price' as const, price: 30, bidFloor: null }
    expect(changes(fixed, { ...draftOf(fixed), price: '35', bidFloor: '5' })).toEqual({ price: 35 })
  })

  it('sends the rules changed, an empty minimum or window as null', () => {
    const draft = { ...draftOf(SETTINGS), minQuality: '60', duplicateDays: '45', duplicateMatch: 'either' as const }
    expect(changes(SETTINGS, draft)).toEqual({ minQuality: 60, duplicateDays: 45, duplicateMatch: 'either' })
    const ruled = { ...SETTINGS, minQuality: 60, duplicateDays: 45 }
    expect(changes(ruled, { ...draftOf(ruled), minQuality: '', duplicateDays: ' ' })).toEqual({ minQuality: null, duplicateDays: null })
  })

  it('never sends a field of a locked duplicate rule, and a locked minimum neither', () => {
    const locked = { ...SETTINGS, locked: ['duplicateRule'] }
    const draft = { ...draftOf(locked), duplicateDays: '9', duplicateMatch: 'email' as const, duplicateScope: 'all' as const, minQuality: '10' }
    expect(changes(locked, draft)).toEqual({ minQuality: 10 })
    expect(changes({ ...SETTINGS, locked: ['minQuality'] }, { ...draftOf(SETTINGS), minQuality: '10' })).toEqual({})
  })

  it('says which rules cannot be sent', () => {
    expect(problems({ ...draftOf(SETTINGS), minQuality: '101', duplicateDays: '0' })).toEqual({
      minQuality: 'A whole number from 0 to 100, or empty for any score.',
      duplicateDays: 'A whole number of days from 1 to 365, or empty for our rule.',
    })
    expect(problems({ ...draftOf(SETTINGS), minQuality: '7.5', duplicateDays: '366' })).toEqual({
      minQuality: 'A whole number from 0 to 100, or empty for any score.',
      duplicateDays: 'A whole number of days from 1 to 365, or empty for our rule.',
    })
    expect(problems({ ...draftOf(SETTINGS), minQuality: '0', duplicateDays: '365' })).toEqual({})
  })

  it('says which numbers cannot be sent', () => {
    expect(problems({ ...draftOf(SETTINGS), dailyCap: '2.5', bidFloor: '-1', monthlyBudget: 'lots' })).toEqual({
      dailyCap: 'A whole number of leads, or empty for no cap.',
      bidFloor: 'An amount in dollars, or empty.',
      monthlyBudget: 'An amount in dollars, or empty.',
    })
    expect(problems(draftOf(SETTINGS))).toEqual({})
  })
})
