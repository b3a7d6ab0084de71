// The dashboard's money: what is owed and how late, the cash of the dashboard's range, and the
// ledger's last check; the Money page has the rest.
import { Link } from 'react-router'
import { query } from '../api'
import { PATHS } from '../paths'
import { Card, ErrorNotice, formatDollarAmount, Loading, Stat } from '../ui'
import { useApi } from '../use-api'
import { signedDollars } from './money-format'
import { CheckStatus } from './money-parts'
import type { MoneySummary } from './types'

export function MoneyPanel({ from, to }: { from: string; to: string }) {
  const { data, error, loading } = useApi<MoneySummary>(`/money${query({ from, to })}`)
  return (
    <section aria-labelledby="money-heading" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="money-heading" className="text-lg font-semibold">Money</h2>
        <Link to={PATHS.money} className="inline-flex min-h-11 items-center text-sm text-brand-700 underline">
          Accounts, receivables and cash
        </Link>
      </div>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && (
        <div className="grid gap-4 lg:grid-cols-3">
          <Card title="Receivables and cash" className="lg:col-span-2">
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <Stat label="Owed" value={formatDollarAmount(data.receivables.owed)} />
              <Stat label="Overdue" value={formatDollarAmount(
                data.receivables.overdue1to30 + data.receivables.overdue31to60 + data.receivables.overdueOver60)} />
              <Stat label="Cash received" value={formatDollarAmount(data.cash.received)} />
              <Stat label="Cash net" value={signedDollars(data.cash.net)} />
            </div>
            <p className="mt-2 text-xs text-slate-500">Owed and overdue: now. Cash: {data.range.from} to {data.range.to}.</p>
          </Card>
          <Card title="Last ledger check">
            <CheckStatus check={data.lastCheck} />
          </Card>
        </div>
      )}
    </section>
  )
}
