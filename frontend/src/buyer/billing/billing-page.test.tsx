import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AddFundsCard } from '../../shell/funds-cards'
import type { Funds, FundsPayment } from '../../shell/funds-types'
import { wholeDollars } from '../../shell/funds-words'
import { stubApi } from '../test-api'
import BillingPage from './billing-page'
import { FUNDS } from './funds-api'
import PaidPage from './paid-page'

const PAID: FundsPayment = {
  id: 'p1', createdAt: '2026-11-27T10:00:00Z', settledAt: '2026-11-27T10:01:00Z', amount: 250, method: 'card',
  status: 'succeeded', automatic: false, failure: null,
}
const FUNDS_NOW: Funds = {
  balance: 250, terms: 'prepaid', creditLimit: null, netDays: 15, available: 250, cardPayments: true,
  cardPaymentsNote: null, minAmount: 1, maxAmount: 10_000,
  autoTopup: { threshold: null, amount: null, cardSaved: false, active: false, lastFailure: null },
  payments: [PAID, { ...PAID, id: 'p2', amount: 40, status: 'failed', automatic: true, failure: 'Your card was declined.' }],
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

function show(path: string, answers: Parameters<typeof stubApi>[0]) {
  const calls = stubApi({ 'GET /api/buyer/funds': { status: 200, body: FUNDS_NOW }, ...answers })
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/billing" element={<BillingPage />} />
        <Route path="/billing/paid" element={<PaidPage />} />
      </Routes>
    </MemoryRouter>,
  )
  return calls
}

describe('the billing page', () => {
  it('shows the balance, the terms and every payment with what became of it', async () => {
    show('/billing', {})
    const balance = await screen.findByRole('region', { name: 'Balance' })
    expect(within(balance).getAllByText('$250.00')).toHaveLength(2)
    expect(within(balance).getByText('Prepaid: leads come while your balance covers their price.')).toBeTruthy()
    const payments = screen.getByRole('list', { name: 'Payments, newest first' })
    expect(within(payments).getByText('Received')).toBeTruthy()
    expect(within(payments).getByText('Automatic top-up')).toBeTruthy()
    expect(within(payments).getByText('Your card was declined.')).toBeTruthy()
    expect(screen.getByText(/No card is saved/)).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'Automatic top-up' })).toBeNull()
  })

  it('says how to pay instead while card payments are off, and offers no card form', async () => {
    show('/billing', { 'GET /api/buyer/funds': { status: 200, body: {
      ...FUNDS_NOW, cardPayments: false, cardPaymentsNote: 'Card payments are not set up: pay by wire or cheque; ask ServiceMatch for the details.',
    } } })
    expect(await screen.findByText(/Card payments are not set up: pay by wire or cheque/)).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'Add funds' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Automatic top-up' })).toBeNull()
  })

  it('sets automatic top-up within the bounds and shows what the server kept', async () => {
    const calls = show('/billing', {
      'GET /api/buyer/funds': { status: 200, body: { ...FUNDS_NOW, autoTopup: { ...FUNDS_NOW.autoTopup, cardSaved: true } } },
      'PUT /api/buyer/funds/topup': { status: 200, body: {
      ...FUNDS_NOW, autoTopup: { threshold: 50, amount: 200, cardSaved: true, active: true, lastFailure: null },
    } } })
    const form = await screen.findByRole('form', { name: 'Automatic top-up' })
    const user = userEvent.setup()
    await user.type(within(form).getByLabelText('When the balance falls under'), '50')
    await user.type(within(form).getByLabelText('Charge the saved card'), '20000')
    expect(within(form).getByText('Whole dollars, from $1.00 to $10,000.00.', { selector: '.text-red-800' })).toBeTruthy()
    await user.clear(within(form).getByLabelText('Charge the saved card'))
    await user.type(within(form).getByLabelText('Charge the saved card'), '200')
    await user.click(within(form).getByRole('button', { name: 'Save automatic top-up' }))
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ threshold: 50, amount: 200 })
    expect(await screen.findByText(/On: when your balance falls under \$50.00, your saved card is charged \$200.00/)).toBeTruthy()
  })

  it('after checkout, says the payment is being confirmed, then shows it received', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    let asked = 0
    show('/billing/paid?payment=p1', { 'GET /api/buyer/funds/payments/p1': () => {
      asked += 1
      return { status: 200, body: asked === 1 ? { ...PAID, status: 'pending', settledAt: null } : PAID }
    } })
    expect(await screen.findByText('Thank you. Your payment of $250.00 is being confirmed with Stripe…')).toBeTruthy()
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_100)
    })
    expect(await screen.findByText('Your payment of $250.00 was received and added to your balance.')).toBeTruthy()
  })
})

describe('adding funds', () => {
  it('takes whole dollars within the bounds only', () => {
    expect(wholeDollars('$1,000', 1, 10_000)).toBe(1000)
    for (const typed of ['', '0', '10001', '12.5', '-3', 'ten']) expect(wholeDollars(typed, 1, 10_000)).toBeNull()
  })

  it('asks for a Checkout page for the amount, with the card kept when asked, and goes there', async () => {
    const calls = stubApi({ 'POST /api/buyer/funds/checkout': { status: 201, body: {
      paymentId: 'p9', url: 'https://checkout.stripe.com/c/pay/cs_test_1' } } })
    const go = vi.fn()
    render(<AddFundsCard api={FUNDS} funds={FUNDS_NOW} go={go} />)
    const user = userEvent.setup()
    const add = screen.getByRole('button', { name: 'Add funds' }) as HTMLButtonElement
    expect(add.disabled).toBe(true)
    await user.type(screen.getByLabelText('Amount'), '250')
    await user.click(screen.getByLabelText('Save this card for automatic top-up'))
    await user.click(screen.getByRole('button', { name: 'Add $250.00' }))
    expect(calls[0].body).toEqual({ amount: 250, saveCard: true })
    expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1')
  })

  it('shows why the server refused, and goes nowhere', async () => {
    stubApi({ 'POST /api/buyer/funds/checkout': { status: 502, body: {
      error: 'Card payments cannot be started just now; try again in a minute.', fields: {} } } })
    const go = vi.fn()
    render(<AddFundsCard api={FUNDS} funds={FUNDS_NOW} go={go} />)
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Amount'), '5')
    await user.click(screen.getByRole('button', { name: 'Add $5.00' }))
    expect(await screen.findByText('Card payments cannot be started just now; try again in a minute.')).toBeTruthy()
    expect(go).not.toHaveBeenCalled()
  })
})
