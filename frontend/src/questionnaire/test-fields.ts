// Small builders of catalogue fields for the unit tests.
import type { FieldDefinition } from '../lib/types'

export function field(id: string, overrides: Partial<FieldDefinition> = {}): FieldDefinition {
  return {
    id,
    label: id,
    type: 'text',
    required: true,
    width: 'full',
    step: null,
    options: null,
    disqualifiers: [],
    mapping: null,
    placeholder: null,
    pattern: null,
    minLength: null,
    maxLength: null,
    autoComplete: null,
    inputMode: null,
    dateValidation: null,
    defaultValue: null,
    ...overrides,
  }
}

export const BASE_FIELDS: FieldDefinition[] = [
  field('first', { step: 98 }),
  field('last', { step: 98 }),
  field('email', { step: 98, type: 'email' }),
  field('address1', { step: 98 }),
  field('city', { step: 98 }),
  field('state', { step: 98, type: 'select', options: ['TX', 'CA'] }),
  field('zip', { step: 98 }),
  field('phone', { step: 99, type: 'tel' }),
]
