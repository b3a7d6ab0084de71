import { ArrowLeft } from 'lucide-react'
import { Link, useSearchParams } from 'react-router'
import { BalanceCard, PaymentConfirmation } from '../../shell/funds-parts'
import type { Funds } from '../../shell/funds-types'
import { useApi } from '../api'
import { PATHS } from '../paths'
import { ErrorNotice, PageTitle, rowLinkClass } from '../ui'
import { FUNDS } from './funds-api'

/** Where Stripe's Checkout returns: the payment is being confirmed, then shown with the new balance. */
export default function PaidPage() {
  const [params] = useSearchParams()
  const paymentId = params.get('payment')
  const funds = useApi<Funds>('/funds')
  return (
    <div className="space-y-4">
      <PageTitle>Your payment</PageTitle>
      {paymentId ? <PaymentConfirmation api={FUNDS} paymentId={paymentId} onSettled={funds.reload} />
        : <ErrorNotice message="This page is reached from Stripe's checkout, with a payment to show." />}
      {funds.data ? <BalanceCard funds={funds.data} /> : null}
      <Link to={PATHS.billing} className={rowLinkClass}><ArrowLeft size={18} aria-hidden="true" className="mr-1" /> Back to Billing</Link>
    </div>
  )
}
