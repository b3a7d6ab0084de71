// One account's money (docs/console-api.md, "Money"): its terms, balance and hold, its entries
// newest first with the balance after each; an admin adjusts the balance or reverses an entry,
// each with a note that goes on the entry and the audit log.
import { ArrowLeft, Banknote, SlidersHorizontal, Undo2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Link, useParams } from 'react-router'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { PATHS } from '../paths'
import { useOperator } from '../session'
import { NoteForm } from '../status-list'
import { buttonClass, Card, ErrorNotice, Field, formatDollarAmount, formatTime, inputClass, Loading, PageTitle, Stat } from '../ui'
import { MOST_ADJUSTED, parseAmount, signedDollars, termsText } from './money-format'
import { HoldBadge } from './money-parts'
import { RecordPayment } from './record-payment'
import type { Account, Entry, Posted } from './types'
import { useAccount } from './use-account'

const KINDS: Record<string, string> = {
  charge: 'Charge', credit: 'Credit', return: 'Return', payment: 'Payment', payment_failed: 'Failed payment',
  dispute: 'Dispute', refund: 'Refund', adjustment: 'Adjustment', reversal: 'Reversal',
}

function AccountFigures({ account }: { account: Account }) {
  return (
    <Card title={`${account.kind === 'buyer' ? 'Buyer' : 'Provider'}: ${account.name}`} actions={<HoldBadge account={account} />}>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Balance" value={signedDollars(account.balance)} />
        <Stat label="May still spend" value={account.available === null ? 'No limit' : signedDollars(account.available)} />
        <Stat label="Overdue" value={formatDollarAmount(account.overdue)} />
        <Stat label="Terms" value={account.terms === 'prepaid' ? 'Prepaid' : 'Credit'} />
      </div>
      <p className="mt-2 text-sm text-slate-600">
        {termsText(account)}.{account.holdReason && account.heldSince && ` Not receiving leads since ${formatTime(account.heldSince)}.`}
      </p>
    </Card>
  )
}

function AdjustForm({ account, onDone, onCancel }: { account: Account; onDone: (posted: Posted) => void; onCancel: () => void }) {
  const [amount, setAmount] = useState('')
  const [note, setNote] = useState('')
  const { run, error, busy } = useCardAction()
  const parsed = parseAmount(amount)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (parsed === null) return
    void run(() => request<Posted>('POST', `/accounts/${encodeURIComponent(account.id)}/adjustments`, { amount: parsed, note }),
      (posted) => {
        onDone(posted)
        return [true, '']
      })
  }
  return (
    <form onSubmit={submit} aria-label={`Adjust ${account.name}'s balance`}
      className="mt-4 grid gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4 sm:grid-cols-2">
      <h2 className="text-base font-semibold sm:col-span-2">Adjust the balance</h2>
      <Field label="Amount in dollars" hint="Positive adds to the balance (a credit), negative takes from it (a fee)."
        error={amount && parsed === null ? `A number of dollars like 25 or -12.50, not zero, at most ${formatDollarAmount(MOST_ADJUSTED)}.` : undefined}>
        <input className={inputClass} inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.currentTarget.value)} />
      </Field>
      <Field label="Why (kept on the entry and the audit log)">
        <textarea className={inputClass} rows={2} required maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      </Field>
      <div className="sm:col-span-2"><ErrorNotice message={error} /></div>
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy || parsed === null || !note.trim()}>
          {parsed === null ? 'Adjust' : `${parsed > 0 ? 'Add' : 'Take'} ${formatDollarAmount(Math.abs(parsed))}`}
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

function EntryWhat({ entry }: { entry: Entry }) {
  const label = KINDS[entry.kind] ?? entry.kind
  return (
    <>
      <span className="font-medium">{label}</span>
      {entry.description && entry.description !== label && <span className="block break-words text-slate-600">{entry.description}</span>}
      {entry.leadId && (
        <Link className="inline-flex min-h-11 items-center text-brand-700 underline" to={PATHS.lead(entry.leadId)}>
          Lead {entry.leadReference ?? ''}
        </Link>
      )}
      {entry.note && <span className="block whitespace-pre-line break-words text-xs text-slate-600">Note: {entry.note}</span>}
      {entry.reversedBy !== null && <span className="block text-xs text-amber-900">Reversed by entry {entry.reversedBy}</span>}
    </>
  )
}

function EntryRow({ entry, isAdmin, onReversed }: { entry: Entry; isAdmin: boolean; onReversed: (posted: Posted) => void }) {
  const [reversing, setReversing] = useState(false)
  const [note, setNote] = useState('')
  const { run, error, busy } = useCardAction()
  const reverse = () => void run(() => request<Posted>('POST', `/entries/${entry.id}/reverse`, { note }), (posted) => {
    setReversing(false)
    onReversed(posted)
    return [true, '']  // the page says what changed, above the entries
  })
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-3 py-3">
        {formatTime(entry.createdAt)}
        <span className="block text-xs text-slate-500">#{entry.id} by {entry.createdBy}</span>
      </td>
      <td className={`px-3 py-3 text-right tabular-nums ${entry.amount < 0 ? 'text-red-800' : ''}`}>{signedDollars(entry.amount)}</td>
      <td className="px-3 py-3 text-right tabular-nums">{signedDollars(entry.balanceAfter)}</td>
      <td className="px-3 py-3"><EntryWhat entry={entry} /></td>
      <td className="px-3 py-3">
        {isAdmin && entry.reversible && !reversing && (
          <button type="button" className={buttonClass('secondary')} onClick={() => setReversing(true)}
            aria-label={`Reverse entry ${entry.id}`}>
            <Undo2 size={16} aria-hidden="true" /> Reverse
          </button>
        )}
        {reversing && (
          <NoteForm name={`Reverse entry ${entry.id}`} label="Why (kept on the reversal and the audit log)" required
            value={note} onChange={setNote} busy={busy} variant="danger" onSubmit={reverse} onCancel={() => setReversing(false)}
            submitLabel={`Reverse ${signedDollars(entry.amount)}`} />
        )}
        <div className="mt-2"><ErrorNotice message={error} /></div>
      </td>
    </tr>
  )
}

type Opened = 'adjust' | 'payment' | null

export default function AccountPage() {
  const { id = '' } = useParams()
  const { isAdmin } = useOperator()
  const loaded = useAccount(id)
  const [opened, setOpened] = useState<Opened>(null)
  const [done, setDone] = useState<string | null>(null)
  const { account } = loaded
  const open = (form: Opened) => {
    setDone(null)
    setOpened(form)
  }
  const changed = (what: string, balance: number) => {
    setOpened(null)
    setDone(`${what} Balance now ${signedDollars(balance)}.`)
    loaded.reload()
  }
  return (
    <>
      <Link to={PATHS.money} className="mb-2 inline-flex min-h-11 items-center gap-1 text-sm text-brand-700 underline">
        <ArrowLeft size={16} aria-hidden="true" /> Money
      </Link>
      <PageTitle actions={isAdmin && account && !opened && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={() => open('payment')}>
            <Banknote size={16} aria-hidden="true" /> Record a payment
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={() => open('adjust')}>
            <SlidersHorizontal size={16} aria-hidden="true" /> Adjust
          </button>
        </div>
      )}>{account ? account.name : 'Account'}</PageTitle>
      <ErrorNotice message={loaded.error} />
      {account && <AccountFigures account={account} />}
      {account && opened === 'adjust' && (
        <AdjustForm account={account} onCancel={() => setOpened(null)}
          onDone={(answer) => changed(`Adjusted by ${signedDollars(answer.entry.amount)}.`, answer.account.balance)} />
      )}
      {account && opened === 'payment' && (
        <RecordPayment account={account} onCancel={() => setOpened(null)}
          onDone={(recorded) => changed(`Payment of ${formatDollarAmount(recorded.payment.amount)} recorded.`, recorded.balance)} />
      )}
      {done && <p role="status" className="mt-3 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">{done}</p>}
      <h2 className="mt-6 mb-1 text-lg font-semibold">Entries</h2>
      <p className="mb-3 text-sm text-slate-600">Newest first, in the order they were posted. Nothing is edited or
        deleted: a mistake is undone by a reversal, its exact opposite.</p>
      {!loaded.loading && !loaded.error && loaded.entries.length === 0 && <p className="text-sm text-slate-500">No entries yet.</p>}
      {loaded.entries.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm" style={{ minWidth: '52rem' }}>
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                {['When', 'Amount', 'Balance after', 'What', ''].map((header, i) => (
                  <th key={i} scope="col" className={`px-3 py-2 font-medium ${i === 1 || i === 2 ? 'text-right' : ''}`}>{header}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {loaded.entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} isAdmin={isAdmin}
                  onReversed={(answer) => changed(`Entry ${entry.id} reversed.`, answer.account.balance)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loaded.loading && <Loading />}
      {loaded.nextCursor && !loaded.loading && (
        <button type="button" className={buttonClass('secondary', 'mt-4')} onClick={loaded.loadMore}>Load more</button>
      )}
    </>
  )
}
