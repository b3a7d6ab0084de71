// Invoices (docs/money.md, "Invoices"): every account's monthly invoices, what is overdue and by
// whom, each one's PDF; an admin records a payment received by wire or cheque against an open one.
import { Download, HandCoins } from 'lucide-react'
import { useState } from 'react'
import type { InvoiceSummary } from '../../shell/invoice-parts'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { useFilters } from '../filters'
import { useOperator } from '../session'
import { CardNotices } from '../status-list'
import { buttonClass, Card, ErrorNotice, Field, formatDollarAmount, formatTime, inputClass, Loading, PageTitle } from '../ui'
import { usePagedList } from '../use-api'

/** GET /api/console/invoices's items (console/invoices.py: ConsoleInvoice); money in dollars, a negative balance owed. */
type ConsoleInvoice = InvoiceSummary & {
  accountId: string
  accountKind: 'buyer' | 'provider'
  ownerId: string
  accountName: string
  emailedAt: string | null
}

type MarkedPaid = { invoice: ConsoleInvoice; recorded: number; paymentId: string | null }
type Method = 'wire' | 'cheque' | 'other'

const SHOW = [
  { value: '', label: 'Every invoice' },
  { value: 'overdue', label: 'Overdue: open past the due date' },
  { value: 'open', label: 'Open' },
  { value: 'paid', label: 'Paid' },
]
const METHODS: { value: Method; label: string }[] = [
  { value: 'wire', label: 'Wire transfer' },
  { value: 'cheque', label: 'Cheque' },
  { value: 'other', label: 'Other' },
]

/** "2025-03" -> "March 2025". */
function monthLabel(month: string): string {
  const [year, number] = month.split('-').map(Number)
  return new Date(Date.UTC(year, number - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
}

function Standing({ invoice }: { invoice: ConsoleInvoice }) {
  const [text, colour] = invoice.status === 'paid' ? ['paid', 'bg-green-100 text-green-800']
    : invoice.overdue ? [`overdue ${invoice.daysOverdue} d`, 'bg-red-100 text-red-800'] : ['open', 'bg-amber-100 text-amber-900']
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${colour}`}>{text}</span>
}

/** One invoice; marking it paid updates it in place, so the outcome stays in sight. */
function InvoiceCard({ item: listed, isAdmin }: { item: ConsoleInvoice; isAdmin: boolean }) {
  const [item, setItem] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [marking, setMarking] = useState(false)
  const [method, setMethod] = useState<Method>('wire')
  const [note, setNote] = useState('')

  const markPaid = () => void run(() => request<MarkedPaid>('POST', `/invoices/${encodeURIComponent(item.id)}/mark-paid`,
    { method, note }), (answer) => {
    setItem(answer.invoice)
    setMarking(false)
    return [true, answer.recorded > 0 ? `Recorded ${formatDollarAmount(answer.recorded)}: ${answer.invoice.label} is paid.`
      : `Payments already covered it: ${answer.invoice.label} is paid.`]
  })

  return (
    <Card title={`${item.label} · ${item.accountName}`} actions={<Standing invoice={item} />}>
      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Account</dt><dd className="min-w-0 break-words">{item.accountName} ({item.accountKind})</dd>
        <dt className="text-slate-500">Month</dt><dd>{monthLabel(item.month)}</dd>
        <dt className="text-slate-500">Amount due</dt><dd className="font-semibold tabular-nums">{formatDollarAmount(item.amountDue)}</dd>
        <dt className="text-slate-500">Due</dt><dd>{formatTime(item.dueAt)}</dd>
        <dt className="text-slate-500">Closing balance</dt><dd className="tabular-nums">{formatDollarAmount(item.closingBalance)}</dd>
        <dt className="text-slate-500">Issued</dt><dd>{formatTime(item.issuedAt)}</dd>
        <dt className="text-slate-500">E-mailed</dt><dd>{item.emailedAt ? formatTime(item.emailedAt) : 'not yet'}</dd>
        {item.paidAt && (<><dt className="text-slate-500">Paid</dt><dd>{formatTime(item.paidAt)}</dd></>)}
      </dl>
      <CardNotices error={error} notice={notice} />
      <div className="mt-3 flex flex-wrap gap-2">
        <a className={buttonClass('secondary')} href={`/api/console/invoices/${encodeURIComponent(item.id)}.pdf`} download
          aria-label={`Download ${item.label} as a PDF`}>
          <Download size={16} aria-hidden="true" /> PDF
        </a>
        {isAdmin && item.status === 'open' && !marking && (
          <button type="button" className={buttonClass('primary')} onClick={() => setMarking(true)} aria-label={`Mark ${item.label} paid`}>
            <HandCoins size={16} aria-hidden="true" /> Mark paid
          </button>
        )}
      </div>
      {marking && item.status === 'open' && (
        <form className="mt-3 space-y-2" aria-label={`Record a payment for ${item.label}`}
          onSubmit={(event) => { event.preventDefault(); markPaid() }}>
          <p className="text-sm text-slate-600">What the invoice still lacks is recorded as a payment to {item.accountName}&apos;s balance.</p>
          <Field label="Received by">
            <select className={inputClass} value={method} onChange={(e) => setMethod(e.currentTarget.value as Method)}>
              {METHODS.map((m) => <option key={m.value} value={m.value}>{m.label}</option>)}
            </select>
          </Field>
          <Field label="Note (a wire's reference, a cheque's number)">
            <textarea className={inputClass} rows={2} required maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={buttonClass('primary')} disabled={busy}>Record the payment</button>
            <button type="button" className={buttonClass('secondary')} onClick={() => setMarking(false)}>Cancel</button>
          </div>
        </form>
      )}
    </Card>
  )
}

export default function InvoicesPage() {
  const { isAdmin } = useOperator()
  const filters = useFilters(['show', 'month'])
  const show = SHOW.some((s) => s.value === filters.values.show) ? filters.values.show : ''
  const month = /^\d{4}-\d{2}$/.test(filters.values.month) ? filters.values.month : ''
  const search = new URLSearchParams()
  if (show === 'overdue') search.set('overdue', 'true')
  else if (show) search.set('status', show)
  if (month) search.set('month', month)
  const query = search.toString()
  const list = usePagedList<ConsoleInvoice>(`/invoices${query ? `?${query}` : ''}`)
  return (
    <>
      <PageTitle>Invoices</PageTitle>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        On the 1st of each month every account with activity or a balance is invoiced for the month before, and the invoice
        is e-mailed to its people. An invoice is paid once payments, credits or returns made after its month cover it.
        Overdue ones are listed longest overdue first.
      </p>
      <div className="mb-4 grid max-w-xl gap-3 sm:grid-cols-2">
        <Field label="Show">
          <select className={inputClass} value={show} onChange={(e) => filters.set('show', e.currentTarget.value)}>
            {SHOW.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </Field>
        <Field label="Month">
          <input type="month" className={inputClass} value={month} onChange={(e) => filters.set('month', e.currentTarget.value)} />
        </Field>
      </div>
      <ErrorNotice message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="text-sm text-slate-500">No invoices here.</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {list.items.map((item) => <InvoiceCard key={item.id} item={item} isAdmin={isAdmin} />)}
      </div>
      {list.loading && <Loading />}
      {list.nextCursor && !list.loading && (
        <button type="button" className={buttonClass('secondary', 'mt-4')} onClick={list.loadMore}>Load more</button>
      )}
    </>
  )
}
