import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import HeldLeadsPage, { type HeldLead } from './held-leads-page'

class Refusal extends Error {
  status: number
  fields: Record<string, string>
  constructor(status: number, message: string, fields: Record<string, string>) {
    super(message)
    this.status = status
    this.fields = fields
  }
}

const request = vi.hoisted(() => vi.fn())
const operator = vi.hoisted(() => ({ isAdmin: true }))
vi.mock('../api', () => ({
  request,
  query: (params: Record<string, string>) => {
    const text = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString()
    return text ? `?${text}` : ''
  },
}))
vi.mock('../session', () => ({ useOperator: () => operator }))
vi.mock('../catalog-options', () => ({
  useCatalogOptions: () => ({ verticals: ['services'], services: [{ id: 'hvac', vertical: 'services', name: 'HVAC' }], states: [] }),
}))

const held: HeldLead = {
  id: 'l1', reference: '7K3M-Q9TX', createdAt: '2026-11-27T10:00:00Z', vertical: 'services', service: 'hvac',
  source: 'fb-ads', state: 'TX', score: 12, reasons: ['email_disposable', 'suppressed:litigators'],
}
let refuseWith: Refusal | null

beforeEach(() => {
  operator.isAdmin = true
  refuseWith = null
  request.mockReset()
  request.mockImplementation(async (method: string, path: string, body?: { note?: string }) => {
    if (method === 'GET') return { items: [held], nextCursor: null, total: 1 }
    if (refuseWith) throw refuseWith
    return { id: 'l1', reference: '7K3M-Q9TX', qualityStatus: path.endsWith('/release') ? 'released' : 'rejected',
      decidedBy: 'admin@servicematch.example', decidedAt: '2026-11-28T09:00:00Z', note: body?.note ?? null }
  })
})

afterEach(cleanup)

const show = () => render(<MemoryRouter><HeldLeadsPage /></MemoryRouter>)

describe('held leads in the console', { timeout: 15_000 }, () => {
  it('lists a held lead with its score, reasons, source, age and a link, and no personal data', async () => {
    show()
    const card = await screen.findByRole('region', { name: 'Lead 7K3M-Q9TX' })
    expect(request).toHaveBeenCalledWith('GET', '/held-leads')
    expect(request).toHaveBeenCalledWith('GET', '/held-leads?limit=1')
    expect(within(card).getByText('12/100')).toBeTruthy()
    expect(within(card).getByText('Disposable e-mail address')).toBeTruthy()
    expect(within(card).getByText('On suppression list litigators')).toBeTruthy()
    expect(within(card).getByText('fb-ads')).toBeTruthy()
    expect(within(card).getByText(/ago\)/)).toBeTruthy()
    expect(within(card).getByRole('link', { name: 'Open the lead' }).getAttribute('href')).toBe('/leads/l1')
    expect((await screen.findByRole('status')).textContent).toBe('1 lead waits for review.')
  })

  it('filters by service and source', async () => {
    show()
    const user = userEvent.setup()
    await screen.findByRole('region', { name: 'Lead 7K3M-Q9TX' })
    await user.selectOptions(screen.getByLabelText('Service'), 'hvac')
    expect(request).toHaveBeenCalledWith('GET', '/held-leads?service=hvac')
    await user.type(screen.getByLabelText('Source'), 'x')
    expect(request).toHaveBeenCalledWith('GET', '/held-leads?service=hvac&source=x')
  })

  it('releases after a confirmation, with an optional note', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Release lead 7K3M-Q9TX' }))
    expect(request).not.toHaveBeenCalledWith('POST', expect.anything(), expect.anything())
    await user.click(screen.getByRole('button', { name: 'Release to routing' }))
    expect(request).toHaveBeenCalledWith('POST', '/held-leads/l1/release', {})
    expect(await screen.findByText('Released: routing sells and offers it now.')).toBeTruthy()
    expect(screen.getByText('released')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Reject lead/ })).toBeNull()
  })

  it('asks why before a rejection, and can be cancelled', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Reject lead 7K3M-Q9TX' }))
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByLabelText('Why it is rejected (kept in the audit log)')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Reject lead 7K3M-Q9TX' }))
    const note = screen.getByLabelText('Why it is rejected (kept in the audit log)')
    expect(note.hasAttribute('required')).toBe(true)
    await user.type(note, 'A bot: 1 s form.')
    await user.click(screen.getByRole('button', { name: 'Reject: sell to nobody' }))
    expect(request).toHaveBeenCalledWith('POST', '/held-leads/l1/reject', { note: 'A bot: 1 s form.' })
    expect(await screen.findByText('Rejected: it goes to nobody.')).toBeTruthy()
  })

  it('says so when a colleague decided first, and offers nothing more', async () => {
    refuseWith = new Refusal(409, 'This lead was released already.', { qualityStatus: 'released' })
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Reject lead 7K3M-Q9TX' }))
    await user.type(screen.getByLabelText('Why it is rejected (kept in the audit log)'), 'Fake.')
    await user.click(screen.getByRole('button', { name: 'Reject: sell to nobody' }))
    expect(await screen.findByText('This lead was released already.')).toBeTruthy()
    expect(screen.getByText('released')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Release lead|Reject lead/ })).toBeNull()
  })

  it('gives an analyst the list without a way to decide', async () => {
    operator.isAdmin = false
    show()
    expect(await screen.findByRole('region', { name: 'Lead 7K3M-Q9TX' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Release|Reject/ })).toBeNull()
  })
})
