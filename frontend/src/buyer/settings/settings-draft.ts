// The settings form's draft: what the buyer may change, as typed, and the changes it makes.
import { numberOrNull, numberText, parseList } from '../format'
import type { BuyerSettings } from '../types'

export const EDITABLE = ['services', 'states', 'zips', 'dailyCap', 'monthlyBudget', 'hours', 'bidFloor', 'price',
  'minQuality', 'duplicateDays', 'duplicateMatch', 'duplicateScope'] as const
export type Editable = (typeof EDITABLE)[number]

// The duplicate rule's three fields are locked together, under one name.
const LOCKED_AS: Partial<Record<Editable, string>> = {
  duplicateDays: 'duplicateRule', duplicateMatch: 'duplicateRule', duplicateScope: 'duplicateRule',
}

export interface Draft {
  services: string[]
  states: string[]
  zips: string
  dailyCap: string
  monthlyBudget: string
  hours: string
  bidFloor: string
  price: string
  minQuality: string
  duplicateDays: string
  duplicateMatch: BuyerSettings['duplicateMatch']
  duplicateScope: BuyerSettings['duplicateScope']
}

export function draftOf(settings: BuyerSettings): Draft {
  return {
    services: [...settings.services],
    states: [...settings.states],
    zips: settings.zips.join(', '),
    dailyCap: numberText(settings.dailyCap),
    monthlyBudget: numberText(settings.monthlyBudget),
    hours: settings.hours ?? '',
    bidFloor: numberText(settings.bidFloor),
    price: numberText(settings.price),
    minQuality: numberText(settings.minQuality),
    duplicateDays: numberText(settings.duplicateDays),
    duplicateMatch: settings.duplicateMatch,
    duplicateScope: settings.duplicateScope,
  }
}

/** The fields a buyer of this mode sets: a bid floor when it is pinged, a price when it pays a fixed one. */
export function appliesTo(settings: BuyerSettings, field: Editable): boolean {
  if (field === 'bidFloor') return settings.mode === 'ping-post'
  if (field === 'price') return settings.mode === 'fixed price'
  return true
}

/** Whether the operator locked this field (or the rule it belongs to) for the buyer. */
export const isLocked = (settings: BuyerSettings, field: Editable) =>
  settings.locked.includes(field) || settings.locked.includes(LOCKED_AS[field] ?? field)

/** What the draft says for each field, as the API takes it. */
function values(draft: Draft): Record<Editable, unknown> {
  return {
    services: draft.services,
    states: draft.states,
    zips: parseList(draft.zips),
    dailyCap: numberOrNull(draft.dailyCap),
    monthlyBudget: numberOrNull(draft.monthlyBudget),
    hours: draft.hours.trim() || null,
    bidFloor: numberOrNull(draft.bidFloor),
    price: numberOrNull(draft.price),
    minQuality: numberOrNull(draft.minQuality),
    duplicateDays: numberOrNull(draft.duplicateDays),
    duplicateMatch: draft.duplicateMatch,
    duplicateScope: draft.duplicateScope,
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(Array.isArray(a) ? [...a].sort() : a) === JSON.stringify(Array.isArray(b) ? [...b].sort() : b)

/** The PATCH body: only the fields changed, never a locked one nor one of the other mode. */
export function changes(settings: BuyerSettings, draft: Draft): Partial<Record<Editable, unknown>> {
  const wanted = values(draft)
  const body: Partial<Record<Editable, unknown>> = {}
  for (const field of EDITABLE) {
    if (isLocked(settings, field) || !appliesTo(settings, field)) continue
    if (!same(wanted[field], settings[field])) body[field] = wanted[field]
  }
  return body
}

/** Numbers that are not numbers, or below zero, before asking the server. */
export function problems(draft: Draft): Partial<Record<Editable, string>> {
  const found: Partial<Record<Editable, string>> = {}
  const money = ['monthlyBudget', 'bidFloor', 'price'] as const
  const cap = numberOrNull(draft.dailyCap)
  if (cap !== null && !(Number.isInteger(cap) && cap >= 0)) found.dailyCap = 'A whole number of leads, or empty for no cap.'
  for (const field of money) {
    const amount = numberOrNull(draft[field])
    if (amount !== null && !(Number.isFinite(amount) && amount >= 0)) found[field] = 'An amount in dollars, or empty.'
  }
  const within = (text: string, low: number, high: number) => {
    const value = numberOrNull(text)
    return value === null || (Number.isInteger(value) && value >= low && value <= high)
  }
  if (!within(draft.minQuality, 0, 100)) found.minQuality = 'A whole number from 0 to 100, or empty for any score.'
  if (!within(draft.duplicateDays, 1, 365)) found.duplicateDays = 'A whole number of days from 1 to 365, or empty for our rule.'
  return found
}
