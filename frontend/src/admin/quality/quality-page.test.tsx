import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import QualityPage, { type MeasureRow, type QualityMeasures } from './quality-page'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({
  request,
  query: (params: Record<string, string>) => {
    const text = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString()
    return text ? `?${text}` : ''
  },
}))
vi.mock('../catalog-options', () => ({ useCatalogOptions: () => ({ verticals: [], services: [], states: [] }) }))

const row = (key: string, label: string, extra: Partial<MeasureRow> = {}): MeasureRow => ({
  key, label, leads: 4, judged: 4, held: 2, heldPct: 50, waiting: 1, rejected: 1, rejectedPct: 25, returned: 1,
  returnedPct: 25, reasons: [{ reason: 'email_disposable', leads: 2, held: 2, rejected: 1, returned: 0 }],
  returnReasons: [{ key: 'wrong_phone', count: 1 }], ...extra,
})

const MEASURES: QualityMeasures = {
  range: { from: '2026-10-30', to: '2026-11-28' },
  total: row('all', 'All leads', { leads: 7, heldPct: 42.9 }),
  bySource: [row('fb-ads', 'fb-ads'), row('partner-7', 'partner-7', { reasons: [], returnReasons: [], waiting: 0 })],
  byService: [row('services/hvac', 'HVAC')],
}

beforeEach(() => {
  request.mockReset()
  request.mockResolvedValue(MEASURES)
})

afterEach(cleanup)

describe('the quality measures page', { timeout: 15_000 }, () => {
  it('shows the shares held, rejected and returned, and the reasons, by source and by service', async () => {
    render(<MemoryRouter><QualityPage /></MemoryRouter>)
    const all = await screen.findByRole('region', { name: 'All leads' })
    expect(within(all).getByText('42.9%')).toBeTruthy()
    const bySource = screen.getByRole('region', { name: 'By source' })
    const fb = within(bySource).getByRole('row', { name: /^fb-ads/ })
    expect(within(fb).getAllByText('50.0%').length).toBe(1)
    expect(fb.textContent).toContain('1 waiting')
    expect(fb.textContent).toContain('Disposable e-mail address 2: 2 held, 1 rejected, 0 returned')
    expect(fb.textContent).toContain('Returned as: Wrong or disconnected phone 1')
    expect(within(bySource).getByRole('row', { name: /^partner-7/ }).textContent).toContain('none')
    expect(within(screen.getByRole('region', { name: 'By service' })).getByRole('row', { name: /^HVAC/ })).toBeTruthy()
    expect(request).toHaveBeenCalledWith('GET', '/quality/measures')
  })

  it('asks again for the range and filters chosen', async () => {
    render(<MemoryRouter><QualityPage /></MemoryRouter>)
    await screen.findByRole('region', { name: 'All leads' })
    await userEvent.setup().type(screen.getByLabelText('Source'), 'f')
    expect(request).toHaveBeenLastCalledWith('GET', '/quality/measures?source=f')
  })

  it('says why it has nothing to show', async () => {
    request.mockRejectedValue(new Error('Choose a range of at most 366 days.'))
    render(<MemoryRouter><QualityPage /></MemoryRouter>)
    expect(await screen.findByText('Choose a range of at most 366 days.')).toBeTruthy()
  })
})
