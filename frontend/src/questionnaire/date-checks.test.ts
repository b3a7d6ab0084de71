import { describe, expect, it } from 'vitest'
import type { FieldDefinition } from '../lib/types'
import { dateError, localErrors } from './validation'

const field = (overrides: Partial<FieldDefinition> = {}): FieldDefinition => ({
  id: 'when', label: 'When?', type: 'date', required: true, width: 'full', step: 1, options: null,
  disqualifiers: [], mapping: null, placeholder: null, pattern: null, minLength: null, maxLength: null,
  autoComplete: null, inputMode: null, dateValidation: null, defaultValue: null, ...overrides,
})
const today = new Date(2026, 10, 23)

describe('date answers checked on their own step', () => {
  it('refuses a month or a year alone', () => {
    expect(dateError(field(), '-03-', today)).toBe('Choose a month, day and year')
    expect(dateError(field(), '1980--', today)).toBe('Choose a month, day and year')
  })

  it('refuses a day the month does not have, naming the month', () => {
    expect(dateError(field(), '1981-02-29', today)).toBe('Choose a date that exists: February 1981 has 28 days')
    expect(dateError(field(), '1980-02-29', today)).toBeNull()
    expect(dateError(field(), '1980-04-31', today)).toBe('Choose a date that exists: April 1980 has 30 days')
  })

  it('refuses a date after today and accepts today', () => {
    expect(dateError(field(), '2026-11-24', today)).toBe('Choose a date in the past')
    expect(dateError(field(), '2026-11-23', today)).toBeNull()
  })

  it('refuses a birth date under 18, unless the field has its own age bounds', () => {
    const birth = field({ mapping: 'dob' })
    expect(dateError(birth, '2015-06-15', today)).toBe('You must be 18 or older to request this service')
    expect(dateError(birth, '2008-11-23', today)).toBeNull()
    expect(dateError(birth, '2008-11-24', today)).toBe('You must be 18 or older to request this service')
    expect(dateError(field({ mapping: 'dob', dateValidation: { minAge: 50, maxAge: 75 } }), '2015-06-15', today)).toBeNull()
    // An incident date is no birth date.
    expect(dateError(field(), '2015-06-15', today)).toBeNull()
  })

  it('reports date problems with the other local checks', () => {
    expect(localErrors([field()], { when: '2030-01-01' }, today)).toEqual({ when: 'Choose a date in the past' })
  })
})
