// The submission payload of POST /api/submit-form (spec section 3, docs/lead-payload.md).
import type { ClickData } from '../../lib/third-party/click'
import type { FieldDefinition, ServiceConfig } from '../../lib/types'
import { nationalNumber, phoneDigits } from '../../questionnaire/formats'
import type { PayloadParts } from '../../questionnaire/lead-sending'
import type { FormSignals } from './form-signals'

export const PUBLISHER_ID = 16
export const SOURCE_ID = 143

const BASE_KEYS = ['first', 'last', 'email', 'phone', 'address1', 'address2', 'city', 'state', 'zip'] as const

export interface LeadPayload {
  pid: number
  sid: number
  cid: number
  istest: 'N'
  requestId: string
  consumer: Record<string, string>
  customquestions: Record<string, string>
  click: ClickData
  recaptchaToken?: string
  // How the form was filled, for the server's quality gate; the server treats it as optional.
  formSignals?: FormSignals
}

export function buildLeadPayload({ service, fields, values, click, requestId, recaptchaToken, formSignals }: PayloadParts & {
  service: Pick<ServiceConfig, 'cid' | 'hiddenParams'>
  formSignals?: FormSignals
}): LeadPayload {
  const consumer: Record<string, string> = {}
  for (const key of BASE_KEYS) consumer[key] = (values[key] ?? '').trim()
  consumer.phone = nationalNumber(phoneDigits(consumer.phone))
  Object.assign(consumer, service.hiddenParams)

  const customquestions: Record<string, string> = {}
  for (const field of fields) {
    if (!field.mapping) continue
    const answer = (values[field.id] ?? '').trim()
    consumer[field.mapping] = answer
    if (field.mapping.startsWith('cq')) customquestions[field.mapping] = answer
  }
  // Values derived from the answers (cq20, the start year of cid 847) are the server's to compute.

  const payload: LeadPayload = {
    pid: PUBLISHER_ID,
    sid: SOURCE_ID,
    cid: service.cid,
    istest: 'N',
    requestId,
    consumer,
    customquestions,
    click,
  }
  if (recaptchaToken) payload.recaptchaToken = recaptchaToken
  if (formSignals) payload.formSignals = formSignals
  return payload
}

/** Where the server's field messages belong: consumer keys and mappings back to field ids. */
export function errorsByFieldId(fields: FieldDefinition[], serverFields: Record<string, string>): Record<string, string> {
  const byMapping = new Map(fields.filter((f) => f.mapping).map((f) => [f.mapping as string, f.id]))
  const ids = new Set(fields.map((f) => f.id))
  const errors: Record<string, string> = {}
  for (const [key, message] of Object.entries(serverFields)) {
    const name = key.replace(/^(consumer|customquestions|answers)\./, '')
    const id = ids.has(name) ? name : byMapping.get(name)
    if (id && !(id in errors)) errors[id] = message
  }
  return errors
}
