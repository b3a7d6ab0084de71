import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '../test-api'
import type { BuyerLead } from '../types'
import LeadPage from './lead-page'

const LEAD: BuyerLead = {
  id: 'lead-1', reference: 'AAAA-1111', boughtAt: '2026-11-26T15:00:00Z', vertical: 'services', service: 'hvac', serviceName: 'HVAC',
  state: 'TX', zip: '78701', price: 18.75, exclusive: true, status: 'sold', withdrawn: null,
  contact: { firstName: 'Maria', lastName: 'Garcia', email: 'maria@example.com', phone: '5125550142', address: '1100 E 5th St',
    city: 'Austin', state: 'TX', zip: '78701' },
  answers: [{ question: 'What do you need?', answer: 'Install or replace a system' }],
  consent: { text: 'I agree to be contacted.', sha256: 'ab'.repeat(32), consentedAt: '2026-11-26T14:59:00Z', ip: '203.0.113.9',
    userAgent: 'Firefox', pageUrl: 'https://servicematch.example/services/hvac', trustedFormCertUrl: 'https://cert.trustedform.com/abc',
    globalPrivacyControl: false, doNotSell: false, partnerListVersion: 'v3' },
  attempts: [{ at: '2026-11-26T15:00:01Z', httpStatus: 200, durationMs: 142, answerStart: '{"ok":true}', outcome: 'accepted' }],
  returnInfo: { returnableUntil: '2026-12-03T15:00:00Z', canReturn: true, problem: null },
  lodgedReturn: null, feedback: [],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(id = 'lead-1') {
  const router = createMemoryRouter([{ path: '/leads/:leadId', element: <LeadPage /> }], { initialEntries: [`/leads/${id}`] })
  render(<RouterProvider router={router} />)
}

describe('a lead’s page', () => {
  it('shows the contact, the consent proof and the posts, and returns the lead with a reason', async () => {
    let lead = LEAD
    const calls = stubApi({
      'GET /api/buyer/leads/lead-1': () => ({ status: 200, body: lead }),
      'POST /api/buyer/leads/lead-1/return': () => {
        lead = { ...LEAD, status: 'return_pending', lodgedReturn: { id: 'r1', leadId: 'lead-1', leadReference: 'AAAA-1111',
          reason: 'wrong_phone', note: null, status: 'pending', price: 18.75, createdAt: '2026-11-27T10:00:00Z',
          requestedBy: 'ana@leadco.example', decidedBy: null, decidedAt: null, decisionNote: null } }
        return { status: 201, body: lead.lodgedReturn }
      },
    })
    open()
    expect(await screen.findByRole('heading', { name: 'Lead AAAA-1111' })).toBeTruthy()
    expect(screen.getByText('Maria Garcia')).toBeTruthy()
    expect(screen.getByRole('link', { name: '(512) 555-0142' }).getAttribute('href')).toBe('tel:5125550142')
    expect(screen.getByText('ab'.repeat(32))).toBeTruthy()
    expect(screen.getByRole('link', { name: 'https://cert.trustedform.com/abc' })).toBeTruthy()
    expect(screen.getAllByText('{"ok":true}').length).toBeGreaterThan(0)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Return this lead' }))
    expect(screen.getByText('Choose a reason.')).toBeTruthy()
    await user.selectOptions(screen.getByLabelText('Reason'), 'wrong_phone')
    await user.click(screen.getByRole('button', { name: 'Return this lead' }))
    expect(await screen.findByText('Waiting for review')).toBeTruthy()
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ reason: 'wrong_phone' })
  })

  it('shows a withdrawn lead without personal data, and a lead it may not return with the reason why', async () => {
    stubApi({ 'GET /api/buyer/leads/lead-1': { status: 200, body: {
      ...LEAD, withdrawn: { kind: 'stopped', at: '2026-11-27T09:00:00Z' }, contact: null,
      returnInfo: { returnableUntil: '2026-12-03T15:00:00Z', canReturn: false, problem: 'Your returns this month reached 15% of last month’s leads.' },
    } } })
    open()
    expect(await screen.findByText(/withdrew their consent/)).toBeTruthy()
    expect(screen.queryByText('Maria Garcia')).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Contact' })).toBeNull()
    expect(screen.getByText('Your returns this month reached 15% of last month’s leads.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Return this lead' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByLabelText('Reason') as HTMLSelectElement).disabled).toBe(true)
  })

  it('asks why a lead was bad before sending the feedback, then shows it', async () => {
    let lead = LEAD
    const calls = stubApi({
      'GET /api/buyer/leads/lead-1': () => ({ status: 200, body: lead }),
      'POST /api/buyer/leads/lead-1/feedback': (call) => {
        const given = { ...(call.body as object), source: 'portal', givenBy: 'ana@leadco.example', createdAt: '2026-11-27T10:00:00Z' }
        lead = { ...LEAD, feedback: [given as BuyerLead['feedback'][number]] }
        return { status: 201, body: given }
      },
    })
    open()
    const form = await screen.findByRole('form', { name: 'Feedback on this lead' })
    const user = userEvent.setup()
    await user.selectOptions(within(form).getByLabelText('What became of it'), 'bad')
    await user.click(within(form).getByRole('button', { name: 'Send feedback' }))
    expect(within(form).getByText('Say why the lead was bad.')).toBeTruthy()
    expect(calls.some((call) => call.method === 'POST')).toBe(false)
    await user.type(within(form).getByLabelText('Why it was bad'), 'Number disconnected')
    await user.click(within(form).getByRole('button', { name: 'Send feedback' }))
    expect(await screen.findByText('Bad lead: Number disconnected')).toBeTruthy()
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ status: 'bad', reason: 'Number disconnected' })
  })

  it('says "not found", with nothing else, for a lead that is not this buyer’s', async () => {
    stubApi({})
    open('someone-elses')
    expect(await screen.findByRole('heading', { name: 'Lead not found' })).toBeTruthy()
    expect(screen.getByText('There is no lead of yours at this address.')).toBeTruthy()
  })
})
