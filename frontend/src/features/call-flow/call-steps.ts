// The call flow's pure rules (spec sections 2, 4 and 5): steps from 1, age bounds, the payload.
import type { ClickData } from '../../lib/third-party/click'
import type { FieldDefinition, ServiceConfig } from '../../lib/types'
import { ageOn, isCompleteDate, nationalNumber, phoneDigits } from '../../questionnaire/formats'
import type { PayloadParts } from '../../questionnaire/lead-sending'
import type { FormValues } from '../../questionnaire/steps'

export const CALL_FLOW_DEFAULT_STEP = 1
export const AGE_SUGGESTION = 'Please contact your local insurance provider for coverage options.'

/** The call flow never merges base fields; a field without a step is on step 1. */
export function callFlowFields(service: Pick<ServiceConfig, 'fields'>): FieldDefinition[] {
  return service.fields.map((field) => ({ ...field, step: field.step ?? CALL_FLOW_DEFAULT_STEP }))
}

/** Going back from a step (or from the sorry panel) never goes before the first step. */
export const previousStepIndex = (index: number) => Math.max(0, index - 1)

export interface DisqualifiedState {
  reason: string
  suggestion: string
}

/** The /disqualified state when a date of birth on these fields is outside its age bounds. */
export function ageDisqualification(
  fields: FieldDefinition[],
  values: FormValues,
  today = new Date(),
): DisqualifiedState | null {
  for (const field of fields) {
    const bounds = field.dateValidation
    const value = values[field.id] ?? ''
    if (!bounds || !isCompleteDate(value)) continue
    const age = ageOn(value, today)
    if (age < bounds.minAge || age > bounds.maxAge) {
      return {
        reason: `Based on your age (${age}), you do not meet our requirements of ${bounds.minAge}-${bounds.maxAge} years old.`,
        suggestion: AGE_SUGGESTION,
      }
    }
  }
  return null
}

export interface CallSubmitPayload {
  requestId: string
  vertical: string
  service: string
  answers: Record<string, string>
  click: ClickData
  recaptchaToken?: string
}

/** The body of POST /api/call-submit (docs/lead-payload.md): every field id with its entered string. */
export function buildCallPayload({ service, fields, values, click, requestId, recaptchaToken }: PayloadParts & {
  service: Pick<ServiceConfig, 'id' | 'vertical'>
}): CallSubmitPayload {
  const answer = (field: FieldDefinition) => {
    const value = (values[field.id] ?? '').trim()
    return field.type === 'tel' ? nationalNumber(phoneDigits(value)) : value
  }
  const answers = Object.fromEntries(fields.map((field) => [field.id, answer(field)]))
  const payload: CallSubmitPayload = { requestId, vertical: service.vertical, service: service.id, answers, click }
  if (recaptchaToken) payload.recaptchaToken = recaptchaToken
  return payload
}

/** The one-line address the call flow stores for an address field. */
export function formatAddress(address: { address1: string; city: string; state: string; zip: string }): string {
  const place = [address.city, [address.state, address.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')
  return [address.address1, place].filter(Boolean).join(', ')
}
