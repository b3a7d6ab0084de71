import { describe, expect, it } from 'vitest'
import { furthestReachableStep } from './steps'
import { field } from './test-fields'
import { answerContradictions, localErrors, parseAgeRange } from './validation'

const today = new Date(2026, 10, 23)
const ageRange = field('age_range', {
  label: 'What is your age?', type: 'radio', step: 2, options: ['Under 50', '50-59', '60-69', '70-75', 'Over 75'],
})
const birthDate = field('date_of_birth', {
  label: 'What is your date of birth?', type: 'date', step: 3, mapping: 'dob', dateValidation: { minAge: 50, maxAge: 75 },
})
const fields = [field('coverage_for', { type: 'radio', step: 1, required: false }), ageRange, birthDate]

describe('age ranges as choices name them', () => {
  it.each([
    ['50-59', { min: 50, max: 59 }],
    ['Under 50', { min: 0, max: 49 }],
    ['Over 75', { min: 76, max: Number.POSITIVE_INFINITY }],
    ['65+', { min: 65, max: Number.POSITIVE_INFINITY }],
    ['Myself', null],
  ])('reads %s', (option, range) => expect(parseAgeRange(option)).toEqual(range))
})

describe('a birth date against the age range chosen before', () => {
  it('asks the visitor to check a birth date that contradicts the range', () => {
    const errors = answerContradictions([birthDate], fields, { age_range: '60-69', date_of_birth: '1986-01-01' }, today)
    expect(errors.date_of_birth).toBe(
      'Please check your date of birth: it makes you 40, but you chose "60-69" as your age. ' +
        'Correct the date, or go Back and change your age.',
    )
  })

  it('takes a birth date within a year of the range as agreeing with it', () => {
    expect(answerContradictions([birthDate], fields, { age_range: '50-59', date_of_birth: '1977-01-01' }, today)).toEqual({})
    expect(answerContradictions([birthDate], fields, { age_range: '60-69', date_of_birth: '1962-01-01' }, today)).toEqual({})
  })

  it('says nothing without an age range or a complete date', () => {
    expect(answerContradictions([birthDate], fields, { age_range: '', date_of_birth: '1986-01-01' }, today)).toEqual({})
    expect(answerContradictions([birthDate], fields, { age_range: '60-69', date_of_birth: '1986--' }, today)).toEqual({})
  })
})

describe('the step a history entry may show', () => {
  it('is the first step with a required answer missing', () => {
    expect(furthestReachableStep(fields, [1, 2, 3], {})).toBe(1)
    expect(furthestReachableStep(fields, [1, 2, 3], { age_range: '60-69' })).toBe(2)
    expect(furthestReachableStep(fields, [1, 2, 3], { age_range: '60-69', date_of_birth: '1960-01-01' })).toBe(2)
  })
})

describe('an address answer', () => {
  const address = field('address', { type: 'address' })
  it('needs its ZIP code', () => {
    expect(localErrors([address], { address: '1600 Pennsylvania Ave NW, Washington, DC' })).toEqual({
      address: 'Add the 5-digit ZIP code to your address.',
    })
    expect(localErrors([address], { address: '1600 Pennsylvania Ave NW, Washington, DC 20500' })).toEqual({})
  })
})
