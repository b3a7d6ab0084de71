import { describe, expect, it } from 'vitest'
import {
  advancesOnChoice, fieldsOnStep, initialValues, isDisqualifying, mergeFields, missingRequired, stepNumbers,
} from './steps'
import { BASE_FIELDS, field } from './test-fields'

const question = (id: string, step: number | null, extra = {}) =>
  field(id, { type: 'radio', options: ['Yes', 'No'], step, ...extra })

describe('mergeFields', () => {
  it('puts base fields first and drops questionnaire fields that repeat a base id', () => {
    const service = { includeBaseFields: true, fields: [question('q1', 2), field('email', { step: 3, label: 'dup' })] }
    const merged = mergeFields(service, BASE_FIELDS)
    expect(merged.map((f) => f.id)).toEqual([...BASE_FIELDS.map((f) => f.id), 'q1'])
    expect(merged.find((f) => f.id === 'email')?.label).toBe('email')
  })

  it('sends fields without a step to step 99', () => {
    const merged = mergeFields({ includeBaseFields: true, fields: [question('loose', null)] }, BASE_FIELDS)
    expect(merged.find((f) => f.id === 'loose')?.step).toBe(99)
  })

  it('leaves the base fields out when includeBaseFields is false', () => {
    const merged = mergeFields({ includeBaseFields: false, fields: [question('q1', 2)] }, BASE_FIELDS)
    expect(merged.map((f) => f.id)).toEqual(['q1'])
  })
})

describe('steps', () => {
  const fields = mergeFields({ includeBaseFields: true, fields: [question('b', 3), question('a', 2)] }, BASE_FIELDS)

  it('are the sorted distinct step values', () => {
    expect(stepNumbers(fields)).toEqual([2, 3, 98, 99])
  })

  it('hold only their own fields', () => {
    expect(fieldsOnStep(fields, 99).map((f) => f.id)).toEqual(['phone'])
    expect(fieldsOnStep(fields, 98)).toHaveLength(7)
  })

  it('advance on a choice only when a later step exists', () => {
    expect(advancesOnChoice(0, 4)).toBe(true)
    expect(advancesOnChoice(3, 4)).toBe(false)
  })
})

describe('missingRequired', () => {
  it('treats whitespace as empty and ignores optional and hidden fields', () => {
    const fields = [field('a'), field('b', { required: false }), field('c', { type: 'hidden' }), field('d')]
    expect(missingRequired(fields, { a: '  ', d: 'x' }).map((f) => f.id)).toEqual(['a'])
  })
})

describe('isDisqualifying', () => {
  it('matches the listed option exactly, not look-alikes', () => {
    const atFault = question('at_fault', 2, {
      options: ['No', 'Yes', "Yes, I was cited but I don't believe I was at fault"],
      disqualifiers: ['Yes'],
    })
    expect(isDisqualifying(atFault, 'Yes')).toBe(true)
    expect(isDisqualifying(atFault, "Yes, I was cited but I don't believe I was at fault")).toBe(false)
  })
})

describe('initialValues', () => {
  const fields = [...BASE_FIELDS, field('q', { defaultValue: 'preset' })]

  it('applies defaults, then prefills in order, then the state from the URL', () => {
    const values = initialValues(
      fields,
      [{ address1: '1 Main St', city: 'Austin', state: '' }, { first: 'Ann', city: 'Dallas', unknown: 'x' }, null],
      'tx',
      ['address2'],
    )
    expect(values).toMatchObject({ q: 'preset', address1: '1 Main St', city: 'Dallas', first: 'Ann', state: 'TX', address2: '' })
    expect(values).not.toHaveProperty('unknown')
  })

  it('keeps a stored state over the URL state and ignores unknown state codes', () => {
    expect(initialValues(fields, [{ state: 'CA' }], 'TX').state).toBe('CA')
    expect(initialValues(fields, [], 'ZZ').state).toBe('')
  })
})
