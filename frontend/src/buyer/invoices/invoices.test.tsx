import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { InvoiceDetail, InvoiceSummary } from '../../shell/invoice-parts'
import { stubApi } from '../test-api'
import InvoicePage from './invoice-page'
import InvoicesPage from './invoices-page'

const summary = (id: string, month: string, more: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  id, number: 7, label: 'INV-000007', month, issuedAt: '2025-04-01T06:00:00Z', dueAt: '2025-04-11T06:00:00Z', status: 'open',
  openingBalance: -20, charges: -75.5, credits: 0, payments: 10, closingBalance: -85.5, amountDue: 85.5, paidAt: null,
  overdue: true, daysOverdue: 12, ...more,
})

const DETAIL: InvoiceDetail = {
  ...summary('inv-1', '2025-03'), accountName: 'Leads Direct LLC', stillDue: 85.5, lineCount: 3,
  lines: [
    { at: '2025-03-10T12:00:00Z', kind: 'charge', reference: 'AAAA-1111', description: 'Heating & AC repair lead, TX', amount: -30 },
    { at: '2025-03-11T12:00:00Z', kind: 'charge', reference: 'BBBB-2222', description: 'Roofing lead, TX', amount: -45.5 },
    { at: '2025-03-12T12:00:00Z', kind: 'payment', reference: null, description: 'Payment by wire', amount: 10 },
  ],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(path: string) {
  const router = createMemoryRouter([
    { path: '/invoices', element: <InvoicesPage /> },
    { path: '/invoices/:invoiceId', element: <InvoicePage /> },
  ], { initialEntries: [path] })
  render(<RouterProvider router={router} />)
  return router
}

describe('the buyer’s invoices', () => {
  it('lists them newest first with what is due and whether it is late, and pages with "Load more"', async () => {
    stubApi({
      'GET /api/buyer/invoices': { status: 200, body: { items: [summary('inv-2', '2025-04', { status: 'paid', overdue: false, daysOverdue: 0, amountDue: 0 })], nextCursor: '8' } },
      'GET /api/buyer/invoices?cursor=8': { status: 200, body: { items: [summary('inv-1', '2025-03')], nextCursor: null } },
    })
    const router = open('/invoices')
    const april = await screen.findByRole('link', { name: 'INV-000007, April 2025' })
    expect(within(april).getByText('Paid')).toBeTruthy()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }))
    const march = await screen.findByRole('link', { name: 'INV-000007, March 2025' })
    expect(within(march).getByText('Overdue 12 days')).toBeTruthy()
    expect(within(march).getByText('$85.50')).toBeTruthy()
    await userEvent.setup().click(march)
    expect(router.state.location.pathname).toBe('/invoices/inv-1')
  })

  it('says when there is none yet', async () => {
    stubApi({ 'GET /api/buyer/invoices': { status: 200, body: { items: [], nextCursor: null } } })
    open('/invoices')
    expect(await screen.findByText(/No invoices yet/)).toBeTruthy()
  })

  it('shows one invoice with its totals, every line and a link to its PDF', async () => {
    stubApi({ 'GET /api/buyer/invoices/inv-1': { status: 200, body: DETAIL } })
    open('/invoices/inv-1')
    expect(await screen.findByRole('heading', { name: 'Invoice for March 2025' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('/api/buyer/invoices/inv-1.pdf')
    const totals = screen.getByRole('region', { name: 'Totals' })
    expect(within(totals).getByText('-$85.50')).toBeTruthy()
    expect(within(totals).getByText('$85.50')).toBeTruthy()
    const lines = within(screen.getByRole('list', { name: 'Invoice lines' })).getAllByRole('listitem')
    expect(lines).toHaveLength(3) // the columns' heading row is for the eye only
    expect(within(lines[0]).getByText('Heating & AC repair lead, TX')).toBeTruthy()
    expect(within(lines[1]).getAllByText(/BBBB-2222/).length).toBeGreaterThan(0)
    expect(within(lines[2]).getByText('$10.00')).toBeTruthy()
    expect(screen.getByText(/Still to pay now: \$85\.50, after what was paid/)).toBeTruthy()
  })

  it('answers another buyer’s invoice as not found, saying nothing of it', async () => {
    stubApi({})
    open('/invoices/someone-elses')
    expect(await screen.findByRole('heading', { name: 'Invoice not found' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Download PDF' })).toBeNull()
  })
})
