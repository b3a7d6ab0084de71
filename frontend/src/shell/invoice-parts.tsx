// A monthly invoice as both portals show it (the buyer portal's /buyer/invoices, the provider
// portal's money page): its shapes as the servers answer them (backend/servicematch/ledger/
// invoice_views.py), the list's rows and one invoice with its lines. Money is in dollars, signed as
// the balance moves: a charge is negative, a payment positive; a negative balance is owed.
import { ArrowLeft, Download } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { ErrorNotice } from './portal-ui'
import type { SessionApiError, SessionClient } from './session-client'
import { Loading } from './ui'

export interface InvoiceSummary {
  id: string
  number: number
  label: string
  month: string
  issuedAt: string
  dueAt: string
  status: 'open' | 'paid'
  openingBalance: number
  charges: number
  credits: number
  payments: number
  closingBalance: number
  amountDue: number
  paidAt: string | null
  overdue: boolean
  daysOverdue: number
}

export interface InvoiceLine {
  at: string
  kind: string
  reference: string | null
  description: string
  amount: number
}

export interface InvoiceDetail extends InvoiceSummary {
  accountName: string
  stillDue: number
  lineCount: number
  lines: InvoiceLine[]
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** 45.5 -> "$45.50", -30 -> "-$30.00". */
const invoiceMoney = (dollars: number) => usd.format(dollars)
/** "Apr 11, 2025": the day in UTC, as the invoice's PDF prints it. */
const invoiceDay = (iso: string) => day.format(new Date(iso))

/** "2025-03" -> "March 2025". */
function invoiceMonth(month: string): string {
  const found = /^(\d{4})-(\d{2})$/.exec(month)
  return found ? monthName.format(new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, 1))) : month
}

/** Paid, open (due on a day), or overdue by some days: in words and colour. */
export function InvoiceBadge({ invoice }: { invoice: InvoiceSummary }) {
  const [label, colour] = invoice.status === 'paid' ? ['Paid', 'bg-green-100 text-green-800']
    : invoice.overdue ? [`Overdue ${invoice.daysOverdue} ${invoice.daysOverdue === 1 ? 'day' : 'days'}`, 'bg-red-100 text-red-800']
      : ['Open', 'bg-amber-100 text-amber-900']
  return <span className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${colour}`}>{label}</span>
}

/** The invoices, newest first: each a row that opens it. */
export function InvoiceRows({ items, linkTo }: { items: InvoiceSummary[]; linkTo: (id: string) => string }) {
  return (
    <ul className="divide-y divide-slate-200">
      {items.map((invoice) => (
        <li key={invoice.id}>
          <Link to={linkTo(invoice.id)} aria-label={`${invoice.label}, ${invoiceMonth(invoice.month)}`}
            className="flex min-h-14 items-center justify-between gap-3 py-2 focus-visible:outline-2 focus-visible:outline-brand-600">
            <span className="min-w-0">
              <span className="block text-base font-semibold text-brand-700 underline underline-offset-2">{invoiceMonth(invoice.month)}</span>
              <span className="block text-sm text-slate-600">{invoice.label} · due {invoiceDay(invoice.dueAt)}</span>
            </span>
            <span className="flex shrink-0 flex-col items-end gap-1">
              <span className="text-base font-semibold tabular-nums text-slate-900">{invoiceMoney(invoice.amountDue)}</span>
              <InvoiceBadge invoice={invoice} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** One invoice: who and when, the totals and what is due, every line, and its PDF. */
export function InvoiceView({ invoice, pdfHref }: { invoice: InvoiceDetail; pdfHref: string }) {
  const totals: [string, number][] = [
    ['Opening balance', invoice.openingBalance],
    ['Charges', invoice.charges],
    ['Credits, returns, adjustments', invoice.credits],
    ['Payments', invoice.payments],
    ['Closing balance', invoice.closingBalance],
  ]
  return (
    <div className="space-y-4">
      <header className="space-y-2">
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">{invoice.label} <InvoiceBadge invoice={invoice} /></p>
        <h1 className="text-2xl font-bold text-slate-900">Invoice for {invoiceMonth(invoice.month)}</h1>
        <p className="text-base text-slate-700">
          {invoice.accountName} · issued {invoiceDay(invoice.issuedAt)} · due {invoiceDay(invoice.dueAt)}
          {invoice.paidAt ? ` · paid ${invoiceDay(invoice.paidAt)}` : ''}
        </p>
        <a href={pdfHref} download className={buttonClasses('secondary', 'w-full sm:w-auto')}>
          <Download size={18} aria-hidden="true" /> Download PDF
        </a>
      </header>
      <section aria-labelledby="invoice-totals" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="invoice-totals" className="mb-3 text-lg font-bold text-brand-900">Totals</h2>
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-base">
          {totals.map(([label, amount]) => (
            <div key={label} className="contents">
              <dt className="text-slate-700">{label}</dt>
              <dd className="text-right tabular-nums text-slate-900">{invoiceMoney(amount)}</dd>
            </div>
          ))}
        </dl>
        <dl className="mt-2 flex items-baseline justify-between gap-4 border-t border-slate-200 pt-2 text-lg font-bold text-slate-900">
          <dt>Amount due</dt>
          <dd className="tabular-nums">{invoiceMoney(invoice.amountDue)}</dd>
        </dl>
        <p className="mt-2 text-sm text-slate-600">
          {invoice.status === 'paid' ? 'Nothing is left to pay on this invoice.'
            : `Still to pay now: ${invoiceMoney(invoice.stillDue)}, after what was paid, credited or returned since.`}
          {' '}A negative balance is owed.
        </p>
      </section>
      <section aria-labelledby="invoice-lines" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="invoice-lines" className="mb-3 text-lg font-bold text-brand-900">Activity in {invoiceMonth(invoice.month)}</h2>
        {invoice.lines.length ? <LineList lines={invoice.lines} /> : <p className="text-sm text-slate-600">No charges, credits or payments this month.</p>}
        {invoice.lineCount > invoice.lines.length ? (
          <p className="mt-3 text-sm text-slate-700">The first {invoice.lines.length} of {invoice.lineCount} lines: the PDF has every one.</p>
        ) : null}
      </section>
    </div>
  )
}

/** Lines as rows: date and reference over the description on a phone, a table's columns on a desk. */
function LineList({ lines }: { lines: InvoiceLine[] }) {
  return (
    <ul aria-label="Invoice lines" className="divide-y divide-slate-200">
      <li aria-hidden="true" className="hidden py-2 text-xs font-semibold uppercase tracking-wide text-slate-500 sm:grid sm:grid-cols-[7rem_7rem_1fr_7rem] sm:gap-3">
        <span>Date</span><span>Reference</span><span>Description</span><span className="text-right">Amount</span>
      </li>
      {lines.map((line, index) => (
        <li key={`${line.at}-${index}`} className="grid grid-cols-[1fr_auto] gap-x-3 py-2 text-sm sm:grid-cols-[7rem_7rem_1fr_7rem] sm:items-baseline">
          <span className="text-slate-600 sm:order-none">{invoiceDay(line.at)}{line.reference ? <span className="font-mono sm:hidden"> · {line.reference}</span> : null}</span>
          <span className="hidden font-mono text-slate-800 sm:block">{line.reference ?? ''}</span>
          <span className="col-start-1 text-base text-slate-900 sm:col-start-auto sm:text-sm">{line.description}</span>
          <span className={`col-start-2 row-span-2 row-start-1 self-center text-right text-base font-semibold tabular-nums sm:col-start-auto sm:row-span-1 sm:row-start-auto sm:text-sm ${line.amount > 0 ? 'text-green-800' : 'text-slate-900'}`}>
            {invoiceMoney(line.amount)}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** One of the signed-in account's invoices, read from its portal's API at `path`: the page both
 * portals show, with a link back to where their invoices are listed. */
export function OwnInvoice({ request, path, pdfHref, backTo, backLabel }: {
  request: SessionClient['request']
  path: string
  pdfHref: string
  backTo: string
  backLabel: string
}) {
  const [invoice, setInvoice] = useState<InvoiceDetail | null>(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    request<InvoiceDetail>('GET', path).then(setInvoice, (refusal: SessionApiError) => {
      // Another account's invoice, or none: the same answer, with nothing in it.
      if (refusal.status === 404) setMissing(true)
      else setError(refusal.message)
    })
  }, [request, path])

  const back = (
    <Link to={backTo} className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 underline">
      <ArrowLeft size={16} aria-hidden="true" /> {backLabel}
    </Link>
  )
  if (missing) {
    return (
      <div className="space-y-4">
        {back}
        <h1 className="text-2xl font-bold text-slate-900">Invoice not found</h1>
        <p className="text-base text-slate-700">There is no invoice of yours at this address.</p>
      </div>
    )
  }
  return (
    <div className="space-y-4">
      {back}
      <ErrorNotice message={error} />
      {invoice ? <InvoiceView invoice={invoice} pdfHref={pdfHref} /> : error ? null : <Loading label="Loading the invoice…" />}
    </div>
  )
}
