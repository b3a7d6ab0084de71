import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { AddFundsCard, AutoTopupCard } from '../../shell/funds-cards'
import { BalanceCard, PaymentsCard } from '../../shell/funds-parts'
import type { Funds } from '../../shell/funds-types'
import { useApi } from '../api'
import { PATHS } from '../paths'
import { Card, ErrorNotice, Loading, PageTitle } from '../ui'
import { FUNDS } from './funds-api'

/** The buyer's money: its balance and terms, "Add funds" by card, automatic top-up, its payments. */
export default function BillingPage() {
  const [params] = useSearchParams()
  const loaded = useApi<Funds>('/funds')
  // What a change of the top-up answered, over what was loaded.
  const [changed, setChanged] = useState<Funds | null>(null)
  const funds = changed ?? loaded.data
  return (
    <div className="space-y-4">
      <PageTitle>Billing</PageTitle>
      <ErrorNotice message={loaded.error} />
      {params.get('checkout') === 'cancelled' ? (
        <p role="status" className="rounded-lg bg-slate-100 px-4 py-3 text-sm text-slate-800">Checkout was closed before paying: nothing was charged.</p>
      ) : null}
      {funds ? (
        <div className="grid gap-4 lg:grid-cols-2 lg:items-start">
          <BalanceCard funds={funds} />
          <AddFundsCard api={FUNDS} funds={funds} />
          <AutoTopupCard api={FUNDS} funds={funds} onChanged={setChanged} />
          <PaymentsCard payments={funds.payments} />
          <Card title="Invoices" id="invoices-heading">
            <p className="text-sm text-slate-700">Each month's invoice: every lead, return and payment, with a PDF.</p>
            <Link to={PATHS.invoices} className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
              See your invoices
            </Link>
          </Card>
        </div>
      ) : loaded.error ? null : <Loading label="Loading your balance…" />}
    </div>
  )
}
