import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import AccountPage from './account-page'
import { parseAmount } from './money-format'
import type { Account, Entry } from './types'

const request = vi.hoisted(() => vi.fn())
const operator = vi.hoisted(() => ({ isAdmin: true }))
vi.mock('../api', async () => ({ request, ConsoleError: Error, query: (await import('../../shell/use-api')).query }))
vi.mock('../session', () => ({ useOperator: () => operator }))

const account: Account = {
  id: 'a1', kind: 'buyer', ownerId: 'b1', name: 'Acme Leads', terms: 'prepaid', creditLimit: null, netDays: 15,
  balance: 70, available: 70, overdue: 0, holdReason: null, heldSince: null,
}
const entry = (id: number, kind: string, amount: number, balanceAfter: number, more: Partial<Entry> = {}): Entry => ({
  id, kind, amount, balanceAfter, cause: 'sale', causeId: `c${id}`, leadId: null, leadReference: null,
  description: '', note: null, createdBy: 'system', createdAt: '2026-11-27T10:00:00Z', reverses: null,
  reversedBy: null, reversible: true, ...more,
})
const charge = entry(2, 'charge', -30, 70, { leadId: 'l1', leadReference: '7K3M-Q9TX', description: 'HVAC lead' })
const payment = entry(1, 'payment', 100, 100, { cause: 'payment' })

beforeEach(() => {
  operator.isAdmin = true
  request.mockReset()
  request.mockImplementation(async (method: string, path: string, body?: { amount?: number; note?: string }) => {
    if (method === 'GET') {
      return path.includes('cursor=') ? { account, entries: [payment], nextCursor: null }
        : { account, entries: [charge], nextCursor: '2' }
    }
    if (path.endsWith('/payments')) {
      return { payment: { id: 'p9', amount: body?.amount, method: 'wire' }, balance: 70 + (body?.amount ?? 0) }
    }
    const amount = path.endsWith('/reverse') ? 30 : body?.amount ?? 0
    return { entry: entry(3, path.endsWith('/reverse') ? 'reversal' : 'adjustment', amount, 70 + amount,
      { note: body?.note ?? null }), account: { ...account, balance: 70 + amount } }
  })
})

afterEach(cleanup)

const show = () => render(
  <MemoryRouter initialEntries={['/money/accounts/a1']}>
    <Routes><Route path="/money/accounts/:id" element={<AccountPage />} /></Routes>
  </MemoryRouter>,
)

describe("an account's money in the console", () => {
  it('shows the account and its entries newest first, a page at a time', async () => {
    show()
    const figures = await screen.findByRole('region', { name: 'Buyer: Acme Leads' })
    expect(within(figures).getByText('Balance').nextSibling?.textContent).toBe('$70.00')
    const row = screen.getByText('HVAC lead').closest('tr') as HTMLElement
    expect(within(row).getByText('-$30.00')).toBeTruthy()
    expect(within(row).getByRole('link', { name: 'Lead 7K3M-Q9TX' }).getAttribute('href')).toBe('/leads/l1')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }))
    expect(request).toHaveBeenCalledWith('GET', '/accounts/a1?cursor=2')
    expect(await screen.findAllByText('$100.00', { selector: 'td' })).toHaveLength(2)
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
  })

  it('lets an admin adjust the balance with a note', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Adjust' }))
    const amount = screen.getByLabelText('Amount in dollars')
    await user.type(amount, '12.345')
    expect(screen.getByText(/A number of dollars like 25 or -12.50/)).toBeTruthy()
    await user.clear(amount)
    await user.type(amount, '-12.50')
    const submit = screen.getByRole('button', { name: 'Take $12.50' })
    expect((submit as HTMLButtonElement).disabled).toBe(true)
    await user.type(screen.getByLabelText('Why (kept on the entry and the audit log)'), 'Setup fee.')
    await user.click(submit)
    expect(request).toHaveBeenCalledWith('POST', '/accounts/a1/adjustments', { amount: -12.5, note: 'Setup fee.' })
    expect((await screen.findByRole('status')).textContent).toBe('Adjusted by -$12.50. Balance now $57.50.')
  })

  it('lets an admin reverse an entry with a note', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Reverse entry 2' }))
    await user.type(screen.getByLabelText('Why (kept on the reversal and the audit log)'), 'Sold twice.')
    await user.click(screen.getByRole('button', { name: 'Reverse -$30.00' }))
    expect(request).toHaveBeenCalledWith('POST', '/entries/2/reverse', { note: 'Sold twice.' })
    expect(await screen.findByText('Entry 2 reversed. Balance now $100.00.')).toBeTruthy()
  })

  it('lets an admin record a payment received by wire', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Record a payment' }))
    await user.type(screen.getByLabelText('Amount received in dollars'), '250')
    await user.type(screen.getByLabelText('Reference (kept on the payment and the audit log)'), 'Wire 4471.')
    await user.click(screen.getByRole('button', { name: 'Record $250.00 received' }))
    expect(request).toHaveBeenCalledWith('POST', '/accounts/a1/payments', { amount: 250, method: 'wire', note: 'Wire 4471.' })
    expect((await screen.findByRole('status')).textContent).toBe('Payment of $250.00 recorded. Balance now $320.00.')
    expect(screen.queryByRole('form', { name: 'Record a payment from Acme Leads' })).toBeNull()
  })

  it('gives an analyst the entries without a way to change them', async () => {
    operator.isAdmin = false
    show()
    expect(await screen.findByText('HVAC lead')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Adjust|Reverse|Record/ })).toBeNull()
  })

  it('reads amounts as typed, in dollars and cents', () => {
    expect(parseAmount(' 25 ')).toBe(25)
    expect(parseAmount('-0.01')).toBe(-0.01)
    for (const bad of ['0', '0.00', '1.234', '1e3', '$5', '100000.01', '', '-']) expect(parseAmount(bad)).toBeNull()
  })
})
