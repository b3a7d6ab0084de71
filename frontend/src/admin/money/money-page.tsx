// The console's money (docs/console-api.md, "Money"): what the accounts owe and how late, the cash
// received per day, the last ledger check, and every account with its balance and hold.
import { query } from '../api'
import { DateFilter, SelectFilter, useFilters } from '../filters'
import { PagedTable } from '../paged-table'
import { Card, ErrorNotice, Field, formatDollarAmount, inputClass, Loading, PageTitle, Stat } from '../ui'
import { useApi, usePagedList } from '../use-api'
import { CashPerDayChart } from './cash-chart'
import { signedDollars, termsText } from './money-format'
import { AccountLink, CheckStatus, HoldBadge, ReceivablesStats } from './money-parts'
import type { Account, MoneySummary } from './types'

const KEYS = ['from', 'to', 'kind', 'status', 'q'] as const

function Summary({ summary }: { summary: MoneySummary }) {
  const { cash } = summary
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card title="Receivables" className="lg:col-span-2">
        <ReceivablesStats receivables={summary.receivables} />
      </Card>
      <Card title="Last ledger check">
        <CheckStatus check={summary.lastCheck} />
      </Card>
      <Card title="Cash per day" className="lg:col-span-3">
        <p className="mb-2 text-sm text-slate-600">{summary.range.from} to {summary.range.to}: payments in, refunds and
          disputes out, by the day each was entered (UTC).</p>
        <div className="mb-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
          <Stat label="Received" value={formatDollarAmount(cash.received)} />
          <Stat label="Paid out" value={formatDollarAmount(cash.paidOut)} />
          <Stat label="Net" value={signedDollars(cash.net)} />
        </div>
        <CashPerDayChart cash={cash} />
      </Card>
    </div>
  )
}

function AccountRow({ account }: { account: Account }) {
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-3 py-1"><AccountLink account={account} /></td>
      <td className="px-3 py-3 capitalize">{account.kind}</td>
      <td className="px-3 py-3">{termsText(account)}</td>
      <td className={`px-3 py-3 text-right tabular-nums ${account.balance < 0 ? 'text-red-800' : ''}`}>
        {signedDollars(account.balance)}
      </td>
      <td className="px-3 py-3 text-right tabular-nums">{account.available === null ? 'No limit' : signedDollars(account.available)}</td>
      <td className="px-3 py-3 text-right tabular-nums">{account.overdue ? formatDollarAmount(account.overdue) : '—'}</td>
      <td className="px-3 py-3"><HoldBadge account={account} /></td>
    </tr>
  )
}

export default function MoneyPage() {
  const filters = useFilters(KEYS)
  const { from, to, kind, status, q } = filters.values
  // An empty range asks the server for its default (the last 30 days).
  const { data, error, loading } = useApi<MoneySummary>(`/money${query({ from, to })}`)
  const accounts = usePagedList<Account>(`/accounts${query({ kind, status, q: q.trim() })}`)
  return (
    <>
      <PageTitle>Money</PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        Every figure is the ledger&apos;s, to the cent. A balance is the account&apos;s funds: payments, credits and
        returns add to it, charges take from it, so a negative balance is owed. Revenue is on the dashboard.
      </p>
      <form className="mb-4 grid max-w-md grid-cols-2 gap-3" onSubmit={(e) => e.preventDefault()} aria-label="Cash range">
        <DateFilter label="Cash from" name="from" filters={filters} />
        <DateFilter label="Cash to" name="to" filters={filters} />
      </form>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && <Summary summary={data} />}
      <section aria-labelledby="accounts-heading" className="mt-8">
        <h2 id="accounts-heading" className="mb-3 text-lg font-semibold">Accounts</h2>
        <form className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-4" onSubmit={(e) => e.preventDefault()}
          aria-label="Account filters">
          <SelectFilter label="Kind" name="kind" filters={filters}>
            <option value="">All kinds</option>
            <option value="buyer">Buyers</option>
            <option value="provider">Providers</option>
          </SelectFilter>
          <SelectFilter label="Show" name="status" filters={filters}>
            <option value="">Every account</option>
            <option value="owing">Owing</option>
            <option value="held">Not receiving leads</option>
          </SelectFilter>
          <div className="col-span-2">
            <Field label="Name">
              <input className={inputClass} type="search" maxLength={200} value={q} placeholder="Acme…"
                onChange={(e) => filters.set('q', e.currentTarget.value)} />
            </Field>
          </div>
        </form>
        <PagedTable list={accounts} minWidth="52rem" empty="No accounts here."
          headers={['Name', 'Kind', 'Terms', 'Balance', 'Available', 'Overdue', 'Hold']}
          row={(account) => <AccountRow key={account.id} account={account} />} />
      </section>
    </>
  )
}
