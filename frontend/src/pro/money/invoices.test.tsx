import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { InvoiceDetail, InvoiceSummary } from '../../shell/invoice-parts'
import { InvoicesCard } from './invoices-card'
import InvoicePage from './invoices-page'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, PortalError: Error, providerPath: (id: string, rest = '') => `/providers/${id}${rest}` }))
vi.mock('../session', () => ({ useSignedIn: () => ({ provider: { id: 'p1', name: 'Cool Air LLC' } }) }))

const summary = (id: string, month: string, more: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  id, number: 3, label: 'INV-000003', month, issuedAt: '2025-04-01T06:00:00Z', dueAt: '2025-04-08T06:00:00Z', status: 'open',
  openingBalance: 0, charges: -45, credits: 0, payments: 0, closingBalance: -45, amountDue: 45, paidAt: null, overdue: false,
  daysOverdue: 0, ...more,
})

const DETAIL: InvoiceDetail = {
  ...summary('inv-1', '2025-03'), accountName: 'Cool Air LLC', stillDue: 45, lineCount: 1,
  lines: [{ at: '2025-03-10T12:00:00Z', kind: 'charge', reference: 'AAAA-1111', description: 'Heating & AC repair lead, TX', amount: -45 }],
}

beforeEach(() => {
  request.mockReset()
})
afterEach(cleanup)

function open(path: string) {
  const router = createMemoryRouter([
    { path: '/money', element: <InvoicesCard providerId="p1" /> },
    { path: '/money/invoices/:invoiceId', element: <InvoicePage /> },
  ], { initialEntries: [path] })
  render(<RouterProvider router={router} />)
  return router
}

describe('the provider’s invoices', () => {
  it('lists them on the money page, older ones on asking, each opening its own page', async () => {
    request.mockImplementation(async (_method: string, path = '') => {
      if (path.endsWith('/invoices/inv-1')) return DETAIL
      return path.endsWith('cursor=3')
        ? { items: [summary('inv-0', '2025-02', { status: 'paid', amountDue: 0 })], nextCursor: null }
        : { items: [summary('inv-1', '2025-03')], nextCursor: '3' }
    })
    const router = open('/money')
    const card = await screen.findByRole('region', { name: 'Invoices' })
    expect(request).toHaveBeenCalledWith('GET', '/providers/p1/invoices')
    const march = await within(card).findByRole('link', { name: 'INV-000003, March 2025' })
    expect(within(march).getByText('Open')).toBeTruthy()
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Older invoices' }))
    expect(await within(card).findByRole('link', { name: 'INV-000003, February 2025' })).toBeTruthy()
    expect(within(card).queryByRole('button', { name: 'Older invoices' })).toBeNull()
    await userEvent.setup().click(march)
    expect(router.state.location.pathname).toBe('/money/invoices/inv-1')
    expect(await screen.findByRole('heading', { name: 'Invoice for March 2025' })).toBeTruthy()
  })

  it('shows one invoice with its lines and its PDF, and another’s as not found', async () => {
    request.mockImplementation(async (_method: string, path = '') => {
      if (path.endsWith('/not-mine')) throw Object.assign(new Error('Not found.'), { status: 404 })
      return DETAIL
    })
    open('/money/invoices/inv-1')
    expect(await screen.findByRole('heading', { name: 'Invoice for March 2025' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe('/api/pro/providers/p1/invoices/inv-1.pdf')
    expect(screen.getByText('Heating & AC repair lead, TX')).toBeTruthy()
    cleanup()
    open('/money/invoices/not-mine')
    expect(await screen.findByRole('heading', { name: 'Invoice not found' })).toBeTruthy()
  })
})
