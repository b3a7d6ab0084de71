// The funds both portals show alike (the buyer's Billing page, the provider's Money page): the
// balance and terms, the payments, and the wait for a payment Stripe has still to confirm.
import { useEffect, useRef, useState } from 'react'
import type { Funds, FundsApi, FundsPayment, PaymentStatus } from './funds-types'
import { dollars, shortDate, termsWords } from './funds-words'
import { Card, ErrorNotice, SuccessNotice } from './portal-ui'

// How often, and how long, the page asks whether Stripe has confirmed a payment.
const CONFIRM_EVERY_MS = 2_000
const CONFIRM_FOR_MS = 120_000

export function BalanceCard({ funds }: { funds: Funds }) {
  const facts: [string, string][] = [
    ['Balance', dollars(funds.balance)],
    ['You may still spend', funds.available === null ? 'No limit' : dollars(funds.available)],
  ]
  return (
    <Card title="Balance" id="funds-balance-heading">
      <dl className="grid grid-cols-2 gap-3">
        {facts.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className={`text-2xl font-extrabold tabular-nums ${label === 'Balance' && funds.balance < 0 ? 'text-red-800' : 'text-slate-900'}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-slate-700">{termsWords(funds)}</p>
    </Card>
  )
}

const STATUS_WORDS: Record<PaymentStatus, [string, string]> = {
  pending: ['Being confirmed', 'bg-amber-100 text-amber-900'],
  succeeded: ['Received', 'bg-green-100 text-green-800'],
  failed: ['Failed', 'bg-red-100 text-red-800'],
  disputed: ['Disputed', 'bg-red-100 text-red-800'],
  refunded: ['Refunded', 'bg-slate-200 text-slate-800'],
}
const METHOD_WORDS: Record<FundsPayment['method'], string> = {
  card: 'Card', wire: 'Wire transfer', cheque: 'Cheque', other: 'Payment',
}

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const [words, colours] = STATUS_WORDS[status]
  return <span className={`inline-flex rounded px-2 py-0.5 text-xs font-semibold ${colours}`}>{words}</span>
}

export function PaymentsCard({ payments }: { payments: FundsPayment[] }) {
  return (
    <Card title="Payments" id="funds-payments-heading">
      {payments.length ? (
        <ul className="divide-y divide-slate-200" aria-label="Payments, newest first">
          {payments.map((payment) => (
            <li key={payment.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0 space-y-1">
                <p className="text-base font-semibold text-slate-900">{payment.automatic ? 'Automatic top-up' : METHOD_WORDS[payment.method]}</p>
                <p className="text-sm text-slate-600">{shortDate(payment.createdAt)}</p>
                {payment.failure ? <p className="text-sm text-red-800">{payment.failure}</p> : null}
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <p className="text-base font-semibold tabular-nums text-slate-900">{dollars(payment.amount)}</p>
                <PaymentStatusBadge status={payment.status} />
              </div>
            </li>
          ))}
        </ul>
      ) : <p className="text-sm text-slate-600">No payments yet.</p>}
    </Card>
  )
}

/** After Checkout: asks about the payment until Stripe has confirmed it (or given up on it). */
function usePaymentConfirmation(api: FundsApi, paymentId: string | null, onSettled: () => void) {
  const [payment, setPayment] = useState<FundsPayment | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [gaveUp, setGaveUp] = useState(false)
  const { request, base } = api
  // The newest onSettled, without asking again each time the caller passes a new function.
  const settled = useRef(onSettled)
  useEffect(() => {
    settled.current = onSettled
  }, [onSettled])
  useEffect(() => {
    if (!paymentId) return
    let current = true
    const started = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    const ask = () => {
      request<FundsPayment>('GET', `${base}/payments/${encodeURIComponent(paymentId)}`)
        .then((answer) => {
          if (!current) return
          setPayment(answer)
          if (answer.status !== 'pending') settled.current()
          else if (Date.now() - started < CONFIRM_FOR_MS) timer = setTimeout(ask, CONFIRM_EVERY_MS)
          else setGaveUp(true)
        })
        .catch((failure: Error) => current && setError(failure.message))
    }
    ask()
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [request, base, paymentId])
  return { payment, error, gaveUp }
}

export function PaymentConfirmation({ api, paymentId, onSettled }: { api: FundsApi; paymentId: string; onSettled: () => void }) {
  const { payment, error, gaveUp } = usePaymentConfirmation(api, paymentId, onSettled)
  if (error) return <ErrorNotice message={error} />
  if (!payment || payment.status === 'pending') {
    return (
      <p role="status" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
        {gaveUp ? 'Stripe has not confirmed your payment yet. It is added to your balance as soon as it does; this page shows it then.'
          : `Thank you. Your payment${payment ? ` of ${dollars(payment.amount)}` : ''} is being confirmed with Stripe…`}
      </p>
    )
  }
  if (payment.status === 'succeeded') return <SuccessNotice message={`Your payment of ${dollars(payment.amount)} was received and added to your balance.`} />
  return <ErrorNotice message={`Your payment of ${dollars(payment.amount)} did not go through${payment.failure ? `: ${payment.failure}` : '.'}`} />
}
