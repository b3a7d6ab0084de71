import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LeadDetail, LeadRow } from '../types'
import LeadPage from './lead-page'
import LeadsPage from './leads-page'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({
  request,
  query: (params: Record<string, string>) => {
    const text = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString()
    return text ? `?${text}` : ''
  },
}))
vi.mock('../session', () => ({ useOperator: () => ({ isAdmin: false }) }))
vi.mock('../catalog-options', () => ({ useCatalogOptions: () => ({ verticals: [], services: [], states: [] }) }))

const ROW: LeadRow = {
  id: 'l1', reference: '7K3M-Q9TX', requestId: 'req-1', createdAt: '2026-11-27T10:00:00Z', vertical: 'services',
  service: 'hvac', state: 'TX', zip: '78701', name: 'M*** G***', email: 'm***@example.com', phone: '(***) ***-0142',
  source: 'fb-ads', status: 'unsent', isDuplicate: false, doNotSell: false, revoked: false, revokedAt: null,
  qualityScore: 12, qualityStatus: 'rejected',
}
const EMPTY_COUNTS = { total: 0, delivered: 0, pending: 0, failed: 0, rejected: 0, skipped: 0 }
const DETAIL = {
  ...ROW, answers: {}, consent: null, deliveries: [], auction: [],
  privacy: { doNotSell: false, gpc: false, revokedAt: null, deletedAt: null },
  deliveryCounts: { leads: EMPTY_COUNTS, receipts: EMPTY_COUNTS, notices: EMPTY_COUNTS, messages: EMPTY_COUNTS },
  qualityReasons: ['honeypot'],
  qualityReview: { decision: 'rejected', by: 'admin@servicematch.example', at: '2026-11-28T09:00:00Z', note: 'A bot.' },
} as unknown as LeadDetail

beforeEach(() => {
  request.mockReset()
  request.mockImplementation(async (_method: string, path: string) =>
    path.startsWith('/leads/') ? DETAIL : { items: [ROW], nextCursor: null })
})

afterEach(cleanup)

describe("a lead's quality in the console", { timeout: 15_000 }, () => {
  it('lists each lead with its score and verdict, and filters by verdict and score', async () => {
    render(<MemoryRouter><LeadsPage /></MemoryRouter>)
    const row = await screen.findByRole('row', { name: /req-1/ })
    expect(within(row).getByText('12/100')).toBeTruthy()
    expect(within(row).getByText('rejected')).toBeTruthy()
    const user = userEvent.setup()
    await user.selectOptions(screen.getByLabelText('Quality'), 'held')
    expect(request).toHaveBeenLastCalledWith('GET', '/leads?quality=held')
    await user.type(screen.getByLabelText('Score to'), '29')
    expect(request).toHaveBeenLastCalledWith('GET', '/leads?quality=held&scoreMax=29')
    expect(screen.getByLabelText('Score from').getAttribute('max')).toBe('100')
  })

  it("shows the lead's score, verdict, reasons and who reviewed it", async () => {
    render(
      <MemoryRouter initialEntries={['/leads/l1']}>
        <Routes><Route path="/leads/:id" element={<LeadPage />} /></Routes>
      </MemoryRouter>,
    )
    const card = await screen.findByRole('region', { name: 'Quality' })
    expect(within(card).getByText('12/100')).toBeTruthy()
    expect(within(card).getByText('Hidden bot field filled in')).toBeTruthy()
    expect(within(card).getByText(/by admin@servicematch\.example/)).toBeTruthy()
    expect(within(card).getByText('A bot.')).toBeTruthy()
  })
})
