// Parts of the console's money that the Money page, an account's page and the dashboard share.
import { Link } from 'react-router'
import { PATHS } from '../paths'
import { formatDollarAmount, formatTime, Stat } from '../ui'
import type { Account, LastCheck, Receivables } from './types'

/** What the accounts owe now and how late, as a grid of figures. */
export function ReceivablesStats({ receivables }: { receivables: Receivables }) {
  return (
    <>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        <Stat label="Owed" value={formatDollarAmount(receivables.owed)} />
        <Stat label="Not due yet" value={formatDollarAmount(receivables.current)} />
        <Stat label="Held for accounts" value={formatDollarAmount(receivables.funds)} />
        <Stat label="1-30 days late" value={formatDollarAmount(receivables.overdue1to30)} />
        <Stat label="31-60 days late" value={formatDollarAmount(receivables.overdue31to60)} />
        <Stat label="Over 60 days late" value={formatDollarAmount(receivables.overdueOver60)} />
      </div>
      <p className="mt-2 text-xs text-slate-500">
        {receivables.accountsOwing} {receivables.accountsOwing === 1 ? 'account owes' : 'accounts owe'},{' '}
        {receivables.accountsOverdue} past an invoice&apos;s due date. Held for accounts: their prepaid funds and
        credits not spent yet.
      </p>
    </>
  )
}

/** The last reconciliation: balanced, or what did not agree. */
export function CheckStatus({ check }: { check: LastCheck | null }) {
  if (!check) {
    return (
      <p className="text-sm text-slate-600">
        The ledger has not been checked yet: run <code className="rounded bg-slate-100 px-1">servicematch ledger check</code>.
      </p>
    )
  }
  return (
    <div className="text-sm">
      <p className={`font-semibold ${check.ok ? 'text-green-800' : 'text-red-800'}`} role="status">
        {check.ok ? 'Balanced: every balance equals the sum of its entries.'
          : `${check.problemCount} ${check.problemCount === 1 ? 'problem' : 'problems'} found.`}
      </p>
      <p className="mt-1 text-slate-600">
        Checked {formatTime(check.finishedAt)}: {check.accounts.toLocaleString('en-US')} accounts,{' '}
        {check.entries.toLocaleString('en-US')} entries.
      </p>
      {check.problems.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-red-800">
          {check.problems.map((problem, i) => <li key={i} className="break-words">{problem}</li>)}
        </ul>
      )}
      {check.problemCount > check.problems.length && (
        <p className="mt-1 text-xs text-slate-500">
          And {check.problemCount - check.problems.length} more: run the check on the server to read them all.
        </p>
      )}
    </div>
  )
}

const HOLDS: Record<NonNullable<Account['holdReason']>, string> = {
  funds: 'Held: funds',
  overdue: 'Held: overdue',
}

/** Why an account is not receiving leads, or nothing while it is. */
export function HoldBadge({ account }: { account: Pick<Account, 'holdReason' | 'heldSince'> }) {
  if (!account.holdReason) return null
  return (
    <span className="inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
      title={account.heldSince ? `Since ${formatTime(account.heldSince)}` : undefined}>
      {HOLDS[account.holdReason] ?? `Held: ${account.holdReason}`}
    </span>
  )
}

export function AccountLink({ account }: { account: Pick<Account, 'id' | 'name'> }) {
  return (
    <Link className="inline-flex min-h-11 items-center font-medium text-brand-700 underline" to={PATHS.moneyAccount(account.id)}>
      {account.name}
    </Link>
  )
}
