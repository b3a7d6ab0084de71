// A recorded payment's amount as typed in the console, and what the server answers for it.

// The server's bound on one recorded payment (ledger/payments.py MAX_RECORDED_DOLLARS).
export const MOST_RECORDED = 10_000_000

export type PaymentMethod = 'wire' | 'cheque' | 'other'

/** What POST /api/console/accounts/{accountId}/payments answers. */
export interface RecordedPayment {
  payment: {
    id: string
    accountId: string
    accountKind: 'buyer' | 'provider'
    ownerId: string
    accountName: string
    amount: number
    method: 'card' | PaymentMethod
    status: 'pending' | 'succeeded' | 'failed' | 'disputed' | 'refunded'
    automatic: boolean
    note: string | null
    failure: string | null
    recordedBy: string
    createdAt: string
    settledAt: string | null
  }
  // The account's balance with the payment, in dollars.
  balance: number
}

/** "1250" or "1,250.50" as typed to dollars; null for anything else: more than zero, at most two
 * decimals, within the bound. */
export function parsePayment(text: string): number | null {
  const plain = text.trim().replace(/,/g, '')
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(plain)) return null
  const amount = Number(plain)
  return amount > 0 && amount <= MOST_RECORDED ? amount : null
}
