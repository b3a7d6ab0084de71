import { Download } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '../../components/button-classes'
import { PortalError, providerPath, request } from '../api'
import { CreditSummary } from '../credit-status'
import { currentMonth, formatDate, formatMoney, monthLabel } from '../format'
import type { CreditList, CreditRequestView, Statement } from '../paying-types'
import { offerPath } from '../paths'
import { useSignedIn } from '../session'
import { Card, ErrorNotice, Loading, inputClass } from '../ui'
import { FundsSection } from './funds-section'
import { InvoicesCard } from './invoices-card'
import { useNow } from '../use-now'

const MONTH = /^\d{4}-\d{2}$/
// A link in a list row: tall enough to tap on a phone.
const ROW_LINK = 'inline-flex min-h-11 items-center text-brand-700 underline'

/** What the provider owes, each month's statement (and its CSV), and its credit requests. */
export default function MoneyPage() {
  const { provider } = useSignedIn()
  const [params, setParams] = useSearchParams()
  const asked = params.get('month')
  const now = useNow(60_000)
  const month = asked && MONTH.test(asked) ? asked : currentMonth(now)
  const [statement, setStatement] = useState<Statement | null>(null)
  const [credits, setCredits] = useState<CreditList | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    let current = true
    request<Statement>('GET', providerPath(provider.id, `/ledger?month=${month}`))
      .then((answer) => current && setStatement(answer))
      .catch((failure: PortalError) => current && setError(failure.message))
    return () => void (current = false)
  }, [provider.id, month])

  useEffect(() => {
    request<CreditList>('GET', providerPath(provider.id, '/credits'))
      .then(setCredits)
      .catch((failure: PortalError) => setError(failure.message))
  }, [provider.id])

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Money</h1>
      <ErrorNotice message={error} />
      {statement ? (
        <>
          <BalanceCard cents={statement.balanceCents} />
          <StatementCard statement={statement} month={month} providerId={provider.id}
            onMonth={(chosen) => setParams(chosen === currentMonth(now) ? {} : { month: chosen })} />
        </>
      ) : error ? null : <Loading label="Loading your statement…" />}
      <FundsSection providerId={provider.id} />
      <InvoicesCard providerId={provider.id} />
      {credits ? <CreditsCard credits={credits} /> : null}
    </div>
  )
}

function BalanceCard({ cents }: { cents: number }) {
  return (
    <Card title="Balance" id="balance-heading">
      <p className="text-3xl font-extrabold text-slate-900">{formatMoney(Math.abs(cents))}</p>
      <p className="mt-1 text-sm text-slate-700">
        {cents > 0 ? 'What you owe for the leads you accepted, less your credits, since you joined.'
          : cents < 0 ? 'In your favour: your credits are more than your charges.'
            : 'Nothing owed.'}
      </p>
    </Card>
  )
}

function StatementCard({ statement, month, providerId, onMonth }: {
  statement: Statement
  month: string
  providerId: string
  onMonth: (month: string) => void
}) {
  // The months with entries, and the one shown even when it has none (this month, early on).
  const months = statement.months.includes(month) ? statement.months : [month, ...statement.months].sort().reverse()
  const csv = `/api/pro${providerPath(providerId, `/ledger.csv?month=${month}`)}`
  const rows: [string, number][] = [
    ['Opening balance', statement.openingBalanceCents],
    ['Charges', statement.chargesCents],
    ['Credits', statement.creditsCents],
    ['Closing balance', statement.closingBalanceCents],
  ]
  return (
    <Card title="Statement" id="statement-heading">
      <div className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="sm:w-64">
            <label htmlFor="statement-month" className="mb-1 block text-sm font-semibold text-slate-800">Month</label>
            <select id="statement-month" className={inputClass} value={month} onChange={(event) => onMonth(event.currentTarget.value)}>
              {months.map((value) => <option key={value} value={value}>{monthLabel(value)}</option>)}
            </select>
          </div>
          <a href={csv} download className={buttonClasses('secondary', 'w-full sm:w-auto')}>
            <Download size={18} aria-hidden="true" /> Download CSV
          </a>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-lg bg-slate-50 p-3 text-sm">
          {rows.map(([label, cents]) => (
            <div key={label} className="contents">
              <dt className="text-slate-700">{label}</dt>
              <dd className="text-right font-semibold tabular-nums text-slate-900">{formatMoney(cents)}</dd>
            </div>
          ))}
        </dl>
        {statement.entries.length ? (
          <ul className="divide-y divide-slate-200" aria-label={`Entries of ${monthLabel(month)}`}>
            {statement.entries.map((entry) => (
              <li key={entry.id} className="flex items-start justify-between gap-3 py-2">
                <div className="min-w-0">
                  <p className="text-base text-slate-900">
                    {entry.offerId ? <Link to={offerPath(entry.offerId)} className={ROW_LINK}>{entry.description}</Link> : entry.description}
                  </p>
                  <p className="text-sm text-slate-600">{formatDate(entry.createdAt)}</p>
                </div>
                <p className={`shrink-0 text-base font-semibold tabular-nums ${entry.amountCents < 0 ? 'text-green-800' : 'text-slate-900'}`}>
                  {formatMoney(entry.amountCents)}
                </p>
              </li>
            ))}
          </ul>
        ) : <p className="text-sm text-slate-600">Nothing charged or credited in {monthLabel(month)}.</p>}
      </div>
    </Card>
  )
}

/** "Roofing, Austin TX"; an erased lead's request keeps only its reason and amount. */
const creditTitle = ({ serviceName, city, state }: CreditRequestView) =>
  [serviceName ?? 'A lead', [city, state].filter(Boolean).join(' ')].filter(Boolean).join(', ')

function CreditsCard({ credits }: { credits: CreditList }) {
  return (
    <Card title="Credit requests" id="credits-heading">
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          This month you have used {credits.usedThisMonth} of {credits.allowedThisMonth} credits
          ({credits.capPercent}% of the leads you accepted).
        </p>
        {credits.items.length ? (
          <ul className="divide-y divide-slate-200">
            {credits.items.map((credit) => (
              <li key={credit.id} className="space-y-1 py-3">
                <p className="text-base font-semibold text-slate-900">
                  {credit.offerId ? <Link to={offerPath(credit.offerId)} className={ROW_LINK}>{creditTitle(credit)}</Link> : creditTitle(credit)}
                </p>
                <CreditSummary credit={credit} />
              </li>
            ))}
          </ul>
        ) : <p className="text-sm text-slate-600">No credit requests. Ask for one from an accepted lead’s page.</p>}
      </div>
    </Card>
  )
}
