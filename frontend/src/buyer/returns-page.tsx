import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { query, usePagedList } from './api'
import { ReturnStatusBadge } from './badges'
import { formatDateTime, formatDollars } from './format'
import { RETURN_STATUSES, returnReasonLabel } from './labels'
import { leadPagePath, PATHS } from './paths'
import type { BuyerReturn, ReturnStatus } from './types'
import { EmptyNote, ErrorNotice, Loading, PageTitle, rowLinkClass } from './ui'

const TABS: { value: ReturnStatus | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied' },
]

/** The buyer's returns, by status: what it asked back, why, and what was decided. */
export default function ReturnsPage() {
  const [params] = useSearchParams()
  const asked = params.get('status') ?? ''
  const status = RETURN_STATUSES.some((entry) => entry.value === asked) ? asked : ''
  const returns = usePagedList<BuyerReturn>(`/returns${query({ status })}`)
  return (
    <div className="space-y-4">
      <PageTitle>Returns</PageTitle>
      <nav aria-label="Returns by status" className="grid grid-cols-4 gap-1 rounded-xl bg-slate-200 p-1 sm:max-w-md">
        {TABS.map(({ value, label }) => {
          const active = value === status
          return (
            <Link key={label} to={`${PATHS.returns}${query({ status: value })}`} aria-current={active ? 'page' : undefined}
              className={'flex min-h-11 items-center justify-center rounded-lg text-sm font-semibold focus-visible:outline-2 focus-visible:outline-brand-600 ' +
                (active ? 'bg-white text-brand-900 shadow-sm' : 'text-slate-700 hover:bg-white/60')}>
              {label}
            </Link>
          )
        })}
      </nav>
      <ErrorNotice message={returns.error} />
      {!returns.loading && !returns.error && returns.items.length === 0 ? (
        <EmptyNote>{status ? 'No returns with this status.' : 'No returns yet. Return a lead from its page.'}</EmptyNote>
      ) : null}
      {returns.items.length ? (
        <ul className="grid gap-3 lg:grid-cols-2">
          {returns.items.map((item) => (
            <li key={item.id} className="space-y-1 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Link to={leadPagePath(item.leadId)} className={`${rowLinkClass} font-mono text-base`}>{item.leadReference ?? 'A lead'}</Link>
                <ReturnStatusBadge status={item.status} />
              </div>
              <p className="text-slate-900">{returnReasonLabel(item.reason)} · {formatDollars(item.price)}</p>
              {item.note ? <p className="text-slate-700">“{item.note}”</p> : null}
              <p className="text-slate-600">Asked {formatDateTime(item.createdAt)} by {item.requestedBy}</p>
              {item.decidedAt ? (
                <p className="text-slate-600">Decided {formatDateTime(item.decidedAt)}{item.decisionNote ? `: ${item.decisionNote}` : ''}</p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {returns.loading ? <Loading label="Loading returns…" /> : null}
      {returns.nextCursor && !returns.loading ? (
        <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={returns.loadMore}>Load more</button>
      ) : null}
    </div>
  )
}
