import { describe, expect, it } from 'vitest'
import { field } from '../../questionnaire/test-fields'
import { ageDisqualification, buildCallPayload, callFlowFields, formatAddress, previousStepIndex } from './call-steps'

const today = new Date(2026, 5, 15)
const dob = field('date_of_birth', { type: 'date', step: 3, dateValidation: { minAge: 50, maxAge: 75 } })

describe('call flow steps', () => {
  it('put fields without a step on step 1 and never merge base fields', () => {
    const fields = callFlowFields({ fields: [field('a'), field('b', { step: 2 })] })
    expect(fields.map((f) => [f.id, f.step])).toEqual([['a', 1], ['b', 2]])
  })

  it('go back no further than the first step', () => {
    expect(previousStepIndex(2)).toBe(1)
    expect(previousStepIndex(0)).toBe(0)
  })
})

describe('ageDisqualification', () => {
  it('accepts ages within the bounds, inclusive', () => {
    expect(ageDisqualification([dob], { date_of_birth: '1976-06-15' }, today)).toBeNull()
    expect(ageDisqualification([dob], { date_of_birth: '1951-06-15' }, today)).toBeNull()
  })

  it('gives the spec reason and suggestion outside them', () => {
    expect(ageDisqualification([dob], { date_of_birth: '1990-01-01' }, today)).toEqual({
      reason: 'Based on your age (36), you do not meet our requirements of 50-75 years old.',
      suggestion: 'Please contact your local insurance provider for coverage options.',
    })
    expect(ageDisqualification([dob], { date_of_birth: '1940-01-01' }, today)?.reason).toContain('(86)')
  })

  it('ignores incomplete dates', () => {
    expect(ageDisqualification([dob], { date_of_birth: '1990--' }, today)).toBeNull()
  })
})

describe('buildCallPayload', () => {
  it('maps every field id to its answer, phone as 10 digits', () => {
    const fields = [field('phone_number', { type: 'tel' }), field('coverage_for', { required: false }), dob]
    const click = { domain_url: 'u', externalid: '', subid1: '', subid2: '', fbclid: '', fbp: '', useragent: 'ua', ip: '', trustedform: '' }
    const payload = buildCallPayload({
      service: { id: 'final-expense-ib', vertical: 'insurance' }, fields, click, requestId: 'r',
      values: { phone_number: '15125550142', date_of_birth: '1960-04-02' },
    })
    expect(payload).toEqual({
      requestId: 'r', vertical: 'insurance', service: 'final-expense-ib', click,
      answers: { phone_number: '5125550142', coverage_for: '', date_of_birth: '1960-04-02' },
    })
  })
})

describe('formatAddress', () => {
  it('writes one line', () => {
    expect(formatAddress({ address1: '500 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' })).toBe(
      '500 Congress Ave, Austin, TX 78701',
    )
  })
})
