// The lead form's step machine (spec section 4), as pure functions the component drives.
import type { FieldDefinition, ServiceConfig } from '../lib/types'

export type FormValues = Record<string, string>

// Fields without a step belong to the phone step of the lead form (spec section 3).
export const LEAD_FORM_DEFAULT_STEP = 99

/** The fields the lead form shows: base fields first, then the service's own (spec section 3). */
export function mergeFields(
  service: Pick<ServiceConfig, 'fields' | 'includeBaseFields'>,
  baseFields: FieldDefinition[],
  defaultStep = LEAD_FORM_DEFAULT_STEP,
): FieldDefinition[] {
  const withStep = (field: FieldDefinition) => ({ ...field, step: field.step ?? defaultStep })
  if (!service.includeBaseFields) return service.fields.map(withStep)
  const baseIds = new Set(baseFields.map((field) => field.id))
  return [...baseFields, ...service.fields.filter((field) => !baseIds.has(field.id))].map(withStep)
}

/** The sorted distinct step numbers of the fields. */
export function stepNumbers(fields: FieldDefinition[]): number[] {
  return [...new Set(fields.map((field) => field.step ?? LEAD_FORM_DEFAULT_STEP))].sort((a, b) => a - b)
}

export function fieldsOnStep(fields: FieldDefinition[], step: number): FieldDefinition[] {
  return fields.filter((field) => field.step === step)
}

export const isBlank = (value: string | undefined) => (value ?? '').trim() === ''

/** Required visible fields of a step that are still empty after trimming, in display order. */
export function missingRequired(fields: FieldDefinition[], values: FormValues): FieldDefinition[] {
  return fields.filter((field) => field.required && field.type !== 'hidden' && isBlank(values[field.id]))
}

export function isDisqualifying(field: FieldDefinition, value: string): boolean {
  return field.disqualifiers.includes(value)
}

/** The last step the visitor may be shown: the first one with a required answer still missing
 * (a step reached through Forward or a reload never skips an unanswered question). */
export function furthestReachableStep(fields: FieldDefinition[], steps: number[], values: FormValues): number {
  const open = steps.findIndex((step) => missingRequired(fieldsOnStep(fields, step), values).length > 0)
  return open === -1 ? steps.length - 1 : open
}

/** Whether picking a choice should move on at once: only when a later step exists. */
export function advancesOnChoice(stepIndex: number, stepCount: number): boolean {
  return stepIndex < stepCount - 1
}

/** Initial values: defaults first, then stored prefills, then the state from the URL. */
export function initialValues(
  fields: FieldDefinition[],
  prefills: Array<object | null>,
  stateCode?: string,
  extraKeys: string[] = [],
): FormValues {
  const values: FormValues = Object.fromEntries(extraKeys.map((key) => [key, '']))
  for (const field of fields) values[field.id] = field.defaultValue ?? ''
  for (const prefill of prefills) {
    if (!prefill) continue
    for (const [key, value] of Object.entries(prefill)) {
      if (typeof value === 'string' && value !== '' && key in values) values[key] = value
    }
  }
  const state = stateCode?.toUpperCase()
  const stateField = fields.find((field) => field.id === 'state')
  if (state && stateField?.options?.includes(state) && isBlank(values.state)) values.state = state
  return values
}
