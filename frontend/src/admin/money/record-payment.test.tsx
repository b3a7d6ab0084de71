import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parsePayment, type RecordedPayment } from './payment-amount'
import { RecordPayment } from './record-payment'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, ConsoleError: Error }))

const recorded: RecordedPayment = {
  payment: {
    id: 'p1', accountId: 'a1', accountKind: 'buyer', ownerId: 'b1', accountName: 'Acme Leads', amount: 1250.5,
    method: 'cheque', status: 'succeeded', automatic: false, note: 'Cheque 104', failure: null,
    recordedBy: 'ops@example.com', createdAt: '2026-11-28T10:00:00Z', settledAt: '2026-11-28T10:00:00Z',
  },
  balance: 1250.5,
}

beforeEach(() => {
  request.mockReset()
})
afterEach(cleanup)

describe('recording a payment', () => {
  it('reads dollars and cents as typed, and nothing else', () => {
    expect(parsePayment('1,250.50')).toBe(1250.5)
    expect(parsePayment(' 99 ')).toBe(99)
    for (const typed of ['', '0', '-5', '1.234', 'abc', '10000000.01', '1e3']) expect(parsePayment(typed)).toBeNull()
  })

  it('sends the amount, the method and the reference, and hands back what was recorded', async () => {
    request.mockResolvedValue(recorded)
    const onDone = vi.fn()
    render(<RecordPayment account={{ id: 'a1', name: 'Acme Leads' }} onDone={onDone} onCancel={() => {}} />)
    const user = userEvent.setup()
    const submit = screen.getByRole('button', { name: 'Record payment' }) as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    await user.type(screen.getByLabelText('Amount received in dollars'), '1250.5')
    await user.selectOptions(screen.getByLabelText('How it was paid'), 'cheque')
    await user.type(screen.getByLabelText(/Reference/), ' Cheque 104 ')
    await user.click(screen.getByRole('button', { name: 'Record $1,250.50 received' }))
    expect(request).toHaveBeenCalledWith('POST', '/accounts/a1/payments', { amount: 1250.5, method: 'cheque', note: 'Cheque 104' })
    expect(onDone).toHaveBeenCalledWith(recorded)
  })

  it('says what is wrong with an amount, and shows the server’s refusal', async () => {
    request.mockImplementation(async () => {
      throw new Error('Only an admin may do this.')
    })
    render(<RecordPayment account={{ id: 'a1', name: 'Acme Leads' }} onDone={() => {}} onCancel={() => {}} />)
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Amount received in dollars'), '12.345')
    expect(screen.getByText(/Dollars and cents like 1250.00/)).toBeTruthy()
    await user.clear(screen.getByLabelText('Amount received in dollars'))
    await user.type(screen.getByLabelText('Amount received in dollars'), '12')
    await user.type(screen.getByLabelText(/Reference/), 'Wire 1')
    await user.click(screen.getByRole('button', { name: 'Record $12.00 received' }))
    expect(await screen.findByText('Only an admin may do this.')).toBeTruthy()
  })
})
