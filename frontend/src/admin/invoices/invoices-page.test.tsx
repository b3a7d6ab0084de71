import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import InvoicesPage from './invoices-page'

const request = vi.hoisted(() => vi.fn())
const operator = vi.hoisted(() => ({ isAdmin: true }))
vi.mock('../api', () => ({ request, ConsoleError: Error, query: () => '' }))
vi.mock('../session', () => ({ useOperator: () => operator }))

const overdue = {
  id: 'i1', number: 1, label: 'INV-000001', month: '2025-03', issuedAt: '2025-04-01T06:00:00Z', dueAt: '2025-04-11T06:00:00Z',
  status: 'open', openingBalance: 0, charges: -45.5, credits: 0, payments: 0, closingBalance: -45.5, amountDue: 45.5, paidAt: null,
  overdue: true, daysOverdue: 12, accountId: 'a1', accountKind: 'buyer', ownerId: 'b1', accountName: 'Leads Direct LLC',
  emailedAt: '2025-04-01T06:05:00Z',
}

beforeEach(() => {
  operator.isAdmin = true
  request.mockReset()
  request.mockImplementation(async (method: string, path: string, body?: { note: string; method: string }) => {
    if (method === 'GET') return { items: path.includes('status=paid') ? [] : [overdue], nextCursor: null }
    return { invoice: { ...overdue, status: 'paid', overdue: false, daysOverdue: 0, paidAt: '2025-04-20T09:00:00Z' },
      recorded: 45.5, paymentId: body ? 'p1' : null }
  })
})

afterEach(cleanup)

const show = (path = '/invoices') => render(<MemoryRouter initialEntries={[path]}><InvoicesPage /></MemoryRouter>)

describe('invoices in the console', () => {
  it('shows an overdue invoice with its account, days overdue, amount due and PDF', async () => {
    show('/invoices?show=overdue&month=2025-03')
    const card = await screen.findByRole('region', { name: 'INV-000001 · Leads Direct LLC' })
    expect(request).toHaveBeenCalledWith('GET', '/invoices?overdue=true&month=2025-03')
    expect(within(card).getByText('overdue 12 d')).toBeTruthy()
    expect(within(card).getByText('$45.50')).toBeTruthy()
    expect(within(card).getByText('Leads Direct LLC (buyer)')).toBeTruthy()
    expect(within(card).getByRole('link', { name: 'Download INV-000001 as a PDF' }).getAttribute('href'))
      .toBe('/api/console/invoices/i1.pdf')
  })

  it('asks by status, and says when there is nothing', async () => {
    show('/invoices?show=paid')
    expect(await screen.findByText('No invoices here.')).toBeTruthy()
    expect(request).toHaveBeenCalledWith('GET', '/invoices?status=paid')
  })

  it('lets an admin record the payment with how it came and a note, then shows it paid', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Mark INV-000001 paid' }))
    const form = screen.getByRole('form', { name: 'Record a payment for INV-000001' })
    await user.selectOptions(within(form).getByLabelText('Received by'), 'cheque')
    await user.type(within(form).getByLabelText(/Note/), 'Cheque 1042')
    await user.click(within(form).getByRole('button', { name: 'Record the payment' }))
    expect(request).toHaveBeenCalledWith('POST', '/invoices/i1/mark-paid', { method: 'cheque', note: 'Cheque 1042' })
    expect(await screen.findByText('Recorded $45.50: INV-000001 is paid.')).toBeTruthy()
    expect(screen.getByText('paid')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Mark INV-000001 paid' })).toBeNull()
  })

  it('gives an analyst the list without a way to mark an invoice paid', async () => {
    operator.isAdmin = false
    show()
    expect(await screen.findByText('INV-000001 · Leads Direct LLC')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Mark/ })).toBeNull()
  })
})
