// An account's funds as both portals' APIs answer them (backend/servicematch/ledger/funds.py): the
// buyer's under /api/buyer/funds, a provider's under /api/pro/providers/{id}/funds. Money in dollars.

export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'disputed' | 'refunded'

export interface FundsPayment {
  id: string
  createdAt: string
  settledAt: string | null
  amount: number
  method: 'card' | 'wire' | 'cheque' | 'other'
  status: PaymentStatus
  // An automatic top-up by the saved card, not a person's Checkout.
  automatic: boolean
  // Why a card payment failed.
  failure: string | null
}

export interface AutoTopup {
  threshold: number | null
  amount: number | null
  cardSaved: boolean
  // Threshold, amount and a saved card: the balance is topped up.
  active: boolean
  // The last automatic top-up's refusal, while no new card is saved.
  lastFailure: string | null
}

export interface Funds {
  balance: number
  terms: 'prepaid' | 'credit'
  creditLimit: number | null
  netDays: number
  // What may still be spent; null: credit without a limit.
  available: number | null
  cardPayments: boolean
  // With card payments off, how to pay instead.
  cardPaymentsNote: string | null
  minAmount: number
  maxAmount: number
  autoTopup: AutoTopup
  payments: FundsPayment[]
}

export interface CheckoutStarted {
  paymentId: string
  // Stripe's Checkout page.
  url: string
}

/** The portal's request function and where its funds live ('/funds', '/providers/p1/funds'). */
export interface FundsApi {
  request: <T>(method: string, path: string, body?: unknown) => Promise<T>
  base: string
}
