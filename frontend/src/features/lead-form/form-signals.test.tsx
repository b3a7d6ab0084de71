import { render } from '@testing-library/react'
import { createRef } from 'react'
import { describe, expect, it } from 'vitest'
import type { ClickData } from '../../lib/third-party/click'
import { BASE_FIELDS } from '../../questionnaire/test-fields'
import { formSignals } from './form-signals'
import { HONEYPOT_NAME, HoneypotField } from './honeypot-field'
import { buildLeadPayload } from './payload'

describe('the form signals', () => {
  it('report the seconds since the first step to a tenth, the funnel tab id and the honeypot', () => {
    const signals = formSignals(1000, '', 48_260)
    expect(signals.secondsOnForm).toBe(47.3)
    expect(signals.tabId).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(signals.honeypot).toBe('')
    // The same tab id the page's funnel events carry, on every send.
    expect(formSignals(0, 'x', 10).tabId).toBe(signals.tabId)
  })

  it('never report a negative time', () => {
    expect(formSignals(5000, '', 4000).secondsOnForm).toBe(0)
  })

  it('go into the payload only when given', () => {
    const click = { domain_url: '', externalid: '', subid1: '', subid2: '', fbclid: '', fbp: '', useragent: '', ip: '', trustedform: '' } as ClickData
    const service = { cid: 640, hiddenParams: { vertical: 'services', category: 'HVAC', source: 'website' } } as const
    const base = { service, fields: BASE_FIELDS, click, requestId: 'r', values: {} }
    expect(buildLeadPayload(base)).not.toHaveProperty('formSignals')
    const signals = { secondsOnForm: 12.5, tabId: 'tab-12345678', honeypot: '' }
    expect(buildLeadPayload({ ...base, formSignals: signals }).formSignals).toEqual(signals)
  })
})

describe('the honeypot field', () => {
  it('is out of sight, out of the accessibility tree, out of the tab order and out of autofill', () => {
    const ref = createRef<HTMLInputElement>()
    const { container } = render(<HoneypotField inputRef={ref} />)
    const wrapper = container.firstElementChild as HTMLElement
    expect(wrapper.getAttribute('aria-hidden')).toBe('true')
    expect(wrapper.className).toContain('sr-only')
    const input = ref.current!
    expect(input.name).toBe(HONEYPOT_NAME)
    expect(input.tabIndex).toBe(-1)
    expect(input.getAttribute('autocomplete')).toBe('off')
    expect(input.value).toBe('')
    // Labelled, so a check for unlabelled controls passes; a bot reads the name, not the label.
    expect(input.labels?.length).toBe(1)
  })
})
