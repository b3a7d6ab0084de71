import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Funds } from '../../shell/funds-types'
import { FundsSection } from './funds-section'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, PortalError: Error, providerPath: (id: string, rest = '') => `/providers/${id}${rest}` }))

const FUNDS: Funds = {
  balance: 0, terms: 'credit', creditLimit: 500, netDays: 30, available: 500, cardPayments: true, cardPaymentsNote: null,
  minAmount: 1, maxAmount: 10_000, payments: [],
  autoTopup: { threshold: null, amount: null, cardSaved: false, active: false, lastFailure: 'Your card has insufficient funds.' },
}

beforeEach(() => {
  request.mockReset()
})
afterEach(cleanup)

describe('the provider’s funds on the money page', () => {
  it('offers Add funds and automatic top-up, with the terms and the last refusal', async () => {
    request.mockResolvedValue(FUNDS)
    render(<MemoryRouter initialEntries={['/money']}><FundsSection providerId="p1" /></MemoryRouter>)
    expect(await screen.findByText('Credit: a credit limit of $500.00; invoices are due 30 days after they are issued.')).toBeTruthy()
    expect(screen.getByRole('form', { name: 'Add funds' })).toBeTruthy()
    expect(screen.getByText(/The last automatic top-up was declined \(Your card has insufficient funds.\)/)).toBeTruthy()
    expect(request).toHaveBeenCalledWith('GET', '/providers/p1/funds')
  })

  it('back from Checkout, shows the payment once Stripe has confirmed it', async () => {
    request.mockImplementation(async (_method: string, path: string) => path.endsWith('/payments/pay-1')
      ? { id: 'pay-1', createdAt: '2026-11-27T10:00:00Z', settledAt: '2026-11-27T10:00:05Z', amount: 80, method: 'card',
        status: 'succeeded', automatic: false, failure: null }
      : FUNDS)
    render(<MemoryRouter initialEntries={['/money?payment=pay-1']}><FundsSection providerId="p1" /></MemoryRouter>)
    expect(await screen.findByText('Your payment of $80.00 was received and added to your balance.')).toBeTruthy()
    expect(request).toHaveBeenCalledWith('GET', '/providers/p1/funds/payments/pay-1')
  })
})
