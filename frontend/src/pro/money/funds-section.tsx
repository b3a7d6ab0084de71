// The provider's funds on the Money page (docs/portal.md, Money): "Add funds" by card through
// Stripe's Checkout, automatic top-up with a saved card, the payments, and, back from Checkout
// (?payment=<id>), the payment being confirmed. The cards are the buyer portal's too (shell/funds-*).
import { useEffect, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { AddFundsCard, AutoTopupCard } from '../../shell/funds-cards'
import { PaymentConfirmation, PaymentsCard } from '../../shell/funds-parts'
import type { Funds, FundsApi } from '../../shell/funds-types'
import { termsWords } from '../../shell/funds-words'
import { PortalError, providerPath, request } from '../api'
import { ErrorNotice } from '../ui'

export function FundsSection({ providerId }: { providerId: string }) {
  const [params] = useSearchParams()
  const api: FundsApi = useMemo(() => ({ request, base: providerPath(providerId, '/funds') }), [providerId])
  const [funds, setFunds] = useState<Funds | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let current = true
    request<Funds>('GET', api.base)
      .then((answer) => current && setFunds(answer))
      .catch((failure: PortalError) => current && setError(failure.message))
    return () => void (current = false)
  }, [api, version])
  const paymentId = params.get('payment')
  return (
    <>
      {paymentId ? <PaymentConfirmation api={api} paymentId={paymentId} onSettled={() => setVersion((v) => v + 1)} /> : null}
      {params.get('checkout') === 'cancelled' ? (
        <p role="status" className="rounded-lg bg-slate-100 px-4 py-3 text-sm text-slate-800">Checkout was closed before paying: nothing was charged.</p>
      ) : null}
      <ErrorNotice message={error} />
      {funds ? (
        <>
          <p className="text-sm text-slate-700">{termsWords(funds)}</p>
          <AddFundsCard api={api} funds={funds} />
          <AutoTopupCard api={api} funds={funds} onChanged={setFunds} />
          <PaymentsCard payments={funds.payments} />
        </>
      ) : null}
    </>
  )
}
