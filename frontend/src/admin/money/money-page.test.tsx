import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import MoneyPage from './money-page'
import type { Account, MoneySummary } from './types'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', async () => ({ request, ConsoleError: Error, query: (await import('../../shell/use-api')).query }))
vi.mock('./cash-chart', () => ({ CashPerDayChart: () => <div>chart</div> }))

const summary: MoneySummary = {
  range: { from: '2026-10-30', to: '2026-11-28' },
  receivables: { owed: 265, current: 105, overdue1to30: 50, overdue31to60: 70, overdueOver60: 40, accountsOwing: 4,
    accountsOverdue: 2, funds: 50 },
  cash: { received: 140.5, paidOut: 55.5, net: 85, perDay: [{ day: '2026-11-28', received: 140.5, paidOut: 55.5, net: 85 }] },
  lastCheck: { id: 3, startedAt: '2026-11-28T02:00:00Z', finishedAt: '2026-11-28T02:00:04Z', ok: false, accounts: 5,
    entries: 1000, problems: ['Acme Leads: balance -$12.00, entries -$13.00'], problemCount: 3 },
}

const acme: Account = {
  id: 'a1', kind: 'buyer', ownerId: 'b1', name: 'Acme Leads', terms: 'credit', creditLimit: 500, netDays: 30,
  balance: -125.5, available: 374.5, overdue: 70, holdReason: null, heldSince: null,
}
const coolAir: Account = {
  ...acme, id: 'a2', kind: 'provider', ownerId: 'p1', name: 'Cool Air', terms: 'prepaid', creditLimit: null, balance: 5,
  available: 5, overdue: 0, holdReason: 'funds', heldSince: '2026-11-27T10:00:00Z',
}

beforeEach(() => {
  request.mockReset()
  request.mockImplementation(async (_method: string, path: string) => {
    if (path.startsWith('/money')) return summary
    return { items: path.includes('kind=provider') ? [coolAir] : [acme, coolAir], nextCursor: null }
  })
})

afterEach(cleanup)

const show = (at = '/money') => render(<MemoryRouter initialEntries={[at]}><MoneyPage /></MemoryRouter>)

describe("the console's money", () => {
  it('shows what is owed and how late, the cash and the last check', async () => {
    show()
    const receivables = await screen.findByRole('region', { name: 'Receivables' })
    expect(within(receivables).getByText('$265.00')).toBeTruthy()
    expect(within(receivables).getByText('31-60 days late').nextSibling?.textContent).toBe('$70.00')
    expect(within(receivables).getByText(/4 accounts owe, 2 past/)).toBeTruthy()
    const check = screen.getByRole('region', { name: 'Last ledger check' })
    expect(within(check).getByRole('status').textContent).toBe('3 problems found.')
    expect(within(check).getByText('Acme Leads: balance -$12.00, entries -$13.00')).toBeTruthy()
    expect(within(check).getByText(/And 2 more/)).toBeTruthy()
    const cash = screen.getByRole('region', { name: 'Cash per day' })
    expect(within(cash).getByText('Net').nextSibling?.textContent).toBe('$85.00')
    expect(request).toHaveBeenCalledWith('GET', '/money')
  })

  it('lists every account with its terms, balance, what it may spend and its hold', async () => {
    show()
    const link = await screen.findByRole('link', { name: 'Acme Leads' })
    expect(link.getAttribute('href')).toBe('/money/accounts/a1')
    const row = link.closest('tr') as HTMLElement
    expect(within(row).getByText('Credit, limit $500.00, net 30 days')).toBeTruthy()
    expect(within(row).getByText('-$125.50')).toBeTruthy()
    expect(within(row).getByText('$374.50')).toBeTruthy()
    const held = screen.getByRole('link', { name: 'Cool Air' }).closest('tr') as HTMLElement
    expect(within(held).getByText('Held: funds')).toBeTruthy()
    expect(within(held).getByText('Prepaid')).toBeTruthy()
  })

  it('narrows the accounts by kind and asks for the cash of a range', async () => {
    show('/money?from=2026-11-01&to=2026-11-28')
    await screen.findByRole('link', { name: 'Acme Leads' })
    expect(request).toHaveBeenCalledWith('GET', '/money?from=2026-11-01&to=2026-11-28')
    await userEvent.setup().selectOptions(screen.getByLabelText('Kind'), 'provider')
    expect(request).toHaveBeenCalledWith('GET', '/accounts?kind=provider')
    expect(await screen.findByRole('link', { name: 'Cool Air' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Acme Leads' })).toBeNull()
  })

  it('says when the ledger was never checked', async () => {
    request.mockImplementation(async (_method: string, path: string) =>
      path.startsWith('/money') ? { ...summary, lastCheck: null } : { items: [], nextCursor: null })
    show()
    expect(await screen.findByText(/has not been checked yet/)).toBeTruthy()
    expect(await screen.findByText('No accounts here.')).toBeTruthy()
  })
})
