// Field checks of spec section 5: local rules first, then the server's /api/validate.
import type { FieldDefinition } from '../lib/types'
import { ageOn, isCompleteDate, MONTHS, nationalNumber, phoneDigits, splitDate } from './formats'
import type { FormValues } from './steps'

export const MESSAGES = {
  phoneTooShort: 'Phone number must be at least 10 digits',
  phoneInvalid: 'Invalid phone number',
  emailFormat: 'Invalid email format',
  emailInvalid: 'Invalid email address',
  zip: 'ZIP code must be exactly 5 digits',
  addressZip: 'Add the 5-digit ZIP code to your address.',
  dateIncomplete: 'Choose a month, day and year',
  dateInFuture: 'Choose a date in the past',
  underAdultAge: 'You must be 18 or older to request this service',
} as const

// The site is not for under-18s (spec section 9); the server refuses them too.
export const ADULT_AGE = 18

const isBirthDate = (field: FieldDefinition) => field.mapping === 'dob' || field.autoComplete === 'bday'

/** What is wrong with a date answer, checked on its own step so the visitor is not sent back to it
 * from Submit: a missing part, a day the month does not have, a future date, an under-18 birth date.
 * The server repeats each check. */
export function dateError(field: FieldDefinition, value: string, today = new Date()): string | null {
  if (!value) return null
  if (!isCompleteDate(value)) return MESSAGES.dateIncomplete
  const { year, month, day } = splitDate(value)
  const daysInMonth = new Date(Number(year), Number(month), 0).getDate()
  if (Number(day) > daysInMonth) {
    return `Choose a date that exists: ${MONTHS[Number(month) - 1]} ${year} has ${daysInMonth} days`
  }
  const todayIso = [today.getFullYear(), today.getMonth() + 1, today.getDate()]
    .map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0')).join('-')
  if (value > todayIso) return MESSAGES.dateInFuture
  // A field with its own age bounds is judged by them (the call flow sends such a visitor to
  // /disqualified with the bounds in words).
  if (isBirthDate(field) && !field.dateValidation && ageOn(value, today) < ADULT_AGE) return MESSAGES.underAdultAge
  return null
}

/** The ages an age-range choice names: "50-59", "Under 50", "Over 75", "65+"; null for anything else. */
export function parseAgeRange(option: string): { min: number; max: number } | null {
  const text = option.trim()
  let match = /^(\d+)\s*(?:-|–|to)\s*(\d+)$/i.exec(text)
  if (match) return { min: Number(match[1]), max: Number(match[2]) }
  match = /^(?:under|below|less than)\s+(\d+)$/i.exec(text)
  if (match) return { min: 0, max: Number(match[1]) - 1 }
  match = /^(?:over|above|older than)\s+(\d+)$/i.exec(text)
  if (match) return { min: Number(match[1]) + 1, max: Number.POSITIVE_INFINITY }
  match = /^(\d+)\s*(?:\+|or (?:older|over|more))$/i.exec(text)
  if (match) return { min: Number(match[1]), max: Number.POSITIVE_INFINITY }
  return null
}

// A birth date within a year of the age range chosen agrees with it: near a birthday, people round.
export const AGE_RANGE_TOLERANCE_YEARS = 1

export const ageContradiction = (age: number, range: string) =>
  `Please check your date of birth: it makes you ${age}, but you chose "${range}" as your age. ` +
  'Correct the date, or go Back and change your age.'

/** Answers of a step that contradict an earlier one: a birth date outside the age range chosen
 * before. Asked about on the field, so the visitor fixes whichever answer is wrong before either
 * one decides anything (docs/funnel.md). */
export function answerContradictions(
  stepFields: FieldDefinition[], fields: FieldDefinition[], values: FormValues, today = new Date(),
): FieldErrors {
  const errors: FieldErrors = {}
  const ageField = fields.find(
    (field) => (field.type === 'radio' || field.type === 'select') && /\bage\b/i.test(field.label) &&
      parseAgeRange(values[field.id] ?? '') !== null,
  )
  if (!ageField) return errors
  const chosen = values[ageField.id]
  const range = parseAgeRange(chosen)!
  for (const field of stepFields) {
    const value = (values[field.id] ?? '').trim()
    if (field.type !== 'date' || !isBirthDate(field) || !isCompleteDate(value) || dateError(field, value, today)) continue
    const age = ageOn(value, today)
    if (age < range.min - AGE_RANGE_TOLERANCE_YEARS || age > range.max + AGE_RANGE_TOLERANCE_YEARS) {
      errors[field.id] = ageContradiction(age, chosen)
    }
  }
  return errors
}

const EMAIL_PATTERN = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/
// A slow validation service must not hold the visitor on a step; the server re-checks on submit.
const VALIDATE_TIMEOUT_MS = 5000

export type FieldErrors = Record<string, string>
type RemoteKind = 'email' | 'phone'

/** Problems found without the network: email shape, phone length, ZIP shape, dates. */
export function localErrors(fields: FieldDefinition[], values: FormValues, today = new Date()): FieldErrors {
  const errors: FieldErrors = {}
  for (const field of fields) {
    const value = (values[field.id] ?? '').trim()
    if (!value) continue
    if (field.type === 'date') {
      const problem = dateError(field, value, today)
      if (problem) errors[field.id] = problem
    }
    if (field.type === 'email' && !EMAIL_PATTERN.test(value)) errors[field.id] = MESSAGES.emailFormat
    if (field.type === 'tel' && nationalNumber(phoneDigits(value)).length < 10) {
      errors[field.id] = MESSAGES.phoneTooShort
    }
    if (field.id === 'zip' && !/^\d{5}$/.test(value)) errors[field.id] = MESSAGES.zip
    if (field.type === 'address' && !/\b\d{5}(?:-\d{4})?\b/.test(value)) errors[field.id] = MESSAGES.addressZip
  }
  return errors
}

/** Asks the server whether an email or phone is usable; any failure of the check counts as valid. */
export async function validateRemotely(kind: RemoteKind, value: string): Promise<string | null> {
  const controller = new AbortController()
  const timer = window.setTimeout(() => controller.abort(), VALIDATE_TIMEOUT_MS)
  try {
    const response = await fetch('/api/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ type: kind, value }),
      signal: controller.signal,
    })
    if (!response.ok) return null
    const body = (await response.json()) as { isValid?: boolean; error?: string | null }
    if (body.isValid !== false) return null
    return body.error || (kind === 'email' ? MESSAGES.emailInvalid : MESSAGES.phoneInvalid)
  } catch (error) {
    console.warn('Validation check failed; accepting the value', error)
    return null
  } finally {
    window.clearTimeout(timer)
  }
}

/** Where a ZIP is when that is not the state chosen ("90210 is in California, not Texas"), from
 * GET /api/address/zip/{zip}. An unknown ZIP or a failed look-up passes; the server re-checks. */
export async function zipStateError(zip: string, state: string, stateLabels: Record<string, string>): Promise<string | null> {
  const controller = new AbortController()
  const timer = window.setTimeout(() => controller.abort(), VALIDATE_TIMEOUT_MS)
  try {
    const response = await fetch(`/api/address/zip/${encodeURIComponent(zip)}`, { signal: controller.signal })
    if (!response.ok) return null
    const place = (await response.json()) as { state: string }
    if (place.state === state) return null
    return `${zip} is in ${stateLabels[place.state] ?? place.state}, not ${stateLabels[state] ?? state}`
  } catch (error) {
    console.warn('ZIP look-up failed; accepting the ZIP', error)
    return null
  } finally {
    window.clearTimeout(timer)
  }
}

/** Remote checks for the email and phone fields given (the lead form passes all of a step's, the call
 * flow the first of each), and for a ZIP given with its state. */
export async function remoteErrors(
  fields: FieldDefinition[], values: FormValues, stateLabels: Record<string, string> = {},
): Promise<FieldErrors> {
  const checks = fields
    .filter((field) => (field.type === 'email' || field.type === 'tel') && !!(values[field.id] ?? '').trim())
    .map(async (field) => {
      const kind: RemoteKind = field.type === 'email' ? 'email' : 'phone'
      const raw = values[field.id].trim()
      const value = kind === 'phone' ? nationalNumber(phoneDigits(raw)) : raw
      return [field.id, await validateRemotely(kind, value)] as const
    })
  const zip = (values.zip ?? '').trim()
  const state = values.state ?? ''
  if (fields.some((field) => field.id === 'zip') && /^\d{5}$/.test(zip) && state) {
    checks.push(zipStateError(zip, state, stateLabels).then((message) => ['zip', message] as const))
  }
  const results = await Promise.all(checks)
  return Object.fromEntries(results.filter(([, message]) => message !== null)) as FieldErrors
}

/** The first email field and the first tel field of a step (what the call flow checks remotely). */
export function firstContactFields(fields: FieldDefinition[]): FieldDefinition[] {
  return [fields.find((f) => f.type === 'email'), fields.find((f) => f.type === 'tel')].filter(
    (field): field is FieldDefinition => field !== undefined,
  )
}
