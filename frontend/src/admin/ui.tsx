// Small building blocks every console page shares.
import { cloneElement, useId, type ReactElement, type ReactNode } from 'react'
import { Notice } from '../shell/ui'
import type { StatusCounts } from './types'

const BUTTON =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ' +
  'disabled:cursor-not-allowed disabled:opacity-60'
const VARIANTS = {
  primary: 'bg-brand-700 text-white hover:bg-brand-900',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
  danger: 'border border-red-300 bg-white text-red-800 hover:bg-red-50',
} as const

export const buttonClass = (variant: keyof typeof VARIANTS = 'primary', extra = '') =>
  `${BUTTON} ${VARIANTS[variant]} ${extra}`

export const inputClass =
  'block w-full min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 ' +
  'focus:border-brand-600 focus:outline-2 focus:outline-brand-600'

export function Field({ label, children, hint, error }: {
  label: string
  // One input, select or textarea: it gets the label's id and the hint as its description.
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>
  hint?: string
  // The server's word on this field; shown in place of the hint.
  error?: string
}) {
  const id = useId()
  const note = error || hint
  // A label beside the control rather than around it: around a select, the label's name would
  // take in the chosen option's text too.
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1 block font-medium text-slate-700">{label}</label>
      {cloneElement(children, {
        id, 'aria-describedby': note ? `${id}-note` : undefined, 'aria-invalid': error ? true : undefined,
      })}
      {note && (
        <span id={`${id}-note`} className={`mt-1 block text-xs ${error ? 'font-medium text-red-700' : 'text-slate-500'}`}>
          {note}
        </span>
      )}
    </div>
  )
}

export function Card({ title, children, actions, className = '' }: {
  title?: string
  children: ReactNode
  actions?: ReactNode
  className?: string
}) {
  const headingId = useId()
  return (
    // Named by its heading, so a screen reader lists it as a region and tests can find it.
    <section aria-labelledby={title ? headingId : undefined}
      className={`min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${className}`}>
      {(title || actions) && (
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          {title && <h2 id={headingId} className="text-base font-semibold text-slate-900">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  )
}

/** A figure with its label, one of a grid of them. */
export function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-md bg-slate-50 p-3">
      <p className="text-xs text-slate-500">{label}</p>
      <p className="break-words text-xl font-bold tabular-nums">{value}</p>
    </div>
  )
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-slate-900">{children}</h1>
      {actions}
    </div>
  )
}

export { Loading } from '../shell/ui'

const NOTICE = { rounded: 'rounded-md', padding: 'px-3 py-2' }

export function ErrorNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="error" message={message} {...NOTICE} />
}

export function SuccessNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="success" message={message} {...NOTICE} />
}

const STATUS_COLOURS: Record<string, string> = {
  delivered: 'bg-green-100 text-green-800',
  accepted: 'bg-green-100 text-green-800',
  approved: 'bg-green-100 text-green-800',
  denied: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-800',
  rejected: 'bg-amber-100 text-amber-900',
  pending: 'bg-slate-100 text-slate-700',
  shown: 'bg-green-100 text-green-800',
  hidden: 'bg-amber-100 text-amber-900',
  held: 'bg-amber-100 text-amber-900',
  released: 'bg-green-100 text-green-800',
  passed: 'bg-green-100 text-green-800',
}

export function StatusBadge({ status }: { status: string }) {
  const colour = STATUS_COLOURS[status] ?? 'bg-slate-100 text-slate-700'
  return <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${colour}`}>{status}</span>
}

/** A lead whose consumer withdrew consent to be contacted, and when. */
export function RevokedBadge({ at }: { at: string | null }) {
  return (
    <span className="inline-flex flex-wrap items-baseline gap-x-1">
      <span className="inline-block rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">revoked</span>
      <span className="text-xs text-slate-600">consent withdrawn {formatTime(at)}</span>
    </span>
  )
}

const COUNTED_STATUSES = ['delivered', 'pending', 'failed', 'rejected', 'skipped'] as const

/** "3: 1 delivered, 2 pending", or "none": deliveries of one kind by status. */
function describeCounts(counts: StatusCounts): string {
  if (counts.total === 0) return 'none'
  const parts = COUNTED_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`)
  return `${counts.total}: ${parts.join(', ')}`
}

/** Kinds of deliveries side by side, each with its count by status. */
export function DeliveryCounts({ rows }: { rows: [string, StatusCounts][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
      {rows.map(([label, counts]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="tabular-nums">{describeCounts(counts)}</dd>
        </div>
      ))}
    </dl>
  )
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatSeconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—'
  if (value < 1) return `${Math.round(value * 1000)} ms`
  if (value < 120) return `${value.toFixed(1)} s`
  return `${(value / 60).toFixed(1)} min`
}

/** A percentage the server already computed (0..100), e.g. a funnel step's drop-off. */
export function formatPct(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${value.toFixed(1)}%`
}

/** A ratio (0..1) shown as a percentage, e.g. the delivery success rate. */
export function formatRatio(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : formatPct(value * 100)
}

/** Cents as dollars with cents, $1,234.50; — for none. */
export function formatDollars(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '—'
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}

/** Dollars (not cents) as money, $1,234.50; — for none. */
export function formatDollarAmount(dollars: number | null | undefined): string {
  if (dollars === null || dollars === undefined) return '—'
  return formatDollars(Math.round(dollars * 100))
}
