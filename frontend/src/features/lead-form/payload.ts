// The submission payload of POST /api/submit-form (spec section 3, docs/lead-payload.md).
import type { ClickData } from '../../lib/third-party/click'
import type { FieldDefinition, ServiceConfig } from '../../lib/types'
import { nationalNumber, phoneDigits } from './formats'
import type { FormValues } from './steps'

export const PUBLISHER_ID = 16
export const SOURCE_ID = 143
// The workers' compensation campaign, whose buyer wants the year employment began (cq20).
export const YEARS_CAMPAIGN_ID = 847

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
}

const YEARS_AGO: Record<string, number> = {
  'Less than 1 Year': 0,
  '1 Year': 1,
  '2 Years': 2,
  '3 Years': 3,
  '4 Years': 4,
  '5 Years': 5,
}

/** cq1 "years with the employer" as the year employment began; empty for "More than 5 Years" or anything else. */
export function yearsToStartYear(answer: string, today = new Date()): string {
  const years = YEARS_AGO[answer]
  return years === undefined ? '' : String(today.getFullYear() - years)
}

export function buildLeadPayload({
  service,
  fields,
  values,
  click,
  requestId,
  recaptchaToken,
  today = new Date(),
}: {
  service: Pick<ServiceConfig, 'cid' | 'hiddenParams'>
  fields: FieldDefinition[]
  values: FormValues
  click: ClickData
  requestId: string
  recaptchaToken?: string
  today?: Date
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
  if (service.cid === YEARS_CAMPAIGN_ID && 'cq1' in customquestions) {
    const startYear = yearsToStartYear(customquestions.cq1, today)
    consumer.cq20 = startYear
    customquestions.cq20 = startYear
  }

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
