import { describe, expect, it } from 'vitest'
import type { ClickData } from '../../lib/third-party/click'
import { BASE_FIELDS, field } from '../../questionnaire/test-fields'
import { buildLeadPayload, errorsByFieldId } from './payload'

const click: ClickData = {
  domain_url: 'https://example.test/services/hvac?subid1=abc', externalid: '', subid1: 'abc', subid2: '',
  fbclid: '', fbp: '', useragent: 'test', ip: '', trustedform: '',
}
const contact = {
  first: ' Maria ', last: 'Garcia', email: 'maria@example.com', phone: '15125550142', address1: '500 Congress Ave',
  city: 'Austin', state: 'TX', zip: '78701',
}

describe('buildLeadPayload', () => {
  const questions = [
    field('service_needed', { step: 2, type: 'radio', options: ['A'], mapping: 'cq1' }),
    field('details', { step: 3, type: 'textarea', required: false, mapping: 'cq10' }),
    field('birth', { step: 4, type: 'date', mapping: 'dob' }),
    field('unmapped', { step: 4, required: false }),
  ]
  const fields = [...BASE_FIELDS, ...questions]
  const service = { cid: 640, hiddenParams: { vertical: 'services', category: 'HVAC', source: 'website' } } as const

  it('builds the documented shape with trimmed base fields, hidden params and mapped answers', () => {
    const payload = buildLeadPayload({
      service, fields, click, requestId: 'r-1',
      values: { ...contact, service_needed: 'A', details: 'old unit', birth: '1960-04-02', unmapped: 'x' },
    })
    expect(payload).toEqual({
      pid: 16, sid: 143, cid: 640, istest: 'N', requestId: 'r-1', click,
      consumer: {
        first: 'Maria', last: 'Garcia', email: 'maria@example.com', phone: '5125550142', address1: '500 Congress Ave',
        address2: '', city: 'Austin', state: 'TX', zip: '78701', vertical: 'services', category: 'HVAC',
        source: 'website', cq1: 'A', cq10: 'old unit', dob: '1960-04-02',
      },
      customquestions: { cq1: 'A', cq10: 'old unit' },
    })
  })

  it('adds recaptchaToken only when there is one', () => {
    const base = { service, fields, click, requestId: 'r', values: contact }
    expect(buildLeadPayload(base)).not.toHaveProperty('recaptchaToken')
    expect(buildLeadPayload({ ...base, recaptchaToken: 'tok' }).recaptchaToken).toBe('tok')
  })

  it('leaves cq20 (the start year of campaign 847) to the server, which derives it from cq1', () => {
    const years = [...BASE_FIELDS, field('years', { step: 3, type: 'radio', options: ['2 Years'], mapping: 'cq1' })]
    const values = { ...contact, years: '2 Years' }
    const workersComp = buildLeadPayload({ service: { ...service, cid: 847 }, fields: years, values, click, requestId: 'r' })
    expect(workersComp.customquestions).toEqual({ cq1: '2 Years' })
    expect(workersComp.consumer).not.toHaveProperty('cq20')
  })
})

describe('errorsByFieldId', () => {
  it('places server messages by field id, consumer key or mapping', () => {
    const fields = [...BASE_FIELDS, field('years', { mapping: 'cq1' })]
    expect(
      errorsByFieldId(fields, { 'consumer.email': 'Invalid email format', phone: 'Invalid phone number', cq1: 'Required', other: 'x' }),
    ).toEqual({ email: 'Invalid email format', phone: 'Invalid phone number', years: 'Required' })
  })
})
