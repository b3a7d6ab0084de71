// Buyers' returns (docs/console-api.md, "Buyers' returns"): the queue, waiting ones oldest first;
// an admin approves (the price comes off the buyer's bill and the revenue) or denies with a note.
import { Link } from 'react-router'
import { useFilters } from '../filters'
import { PATHS } from '../paths'
import { ReviewActions } from '../review-actions'
import { useOperator } from '../session'
import { DecisionRows } from '../status-list'
import { buttonClass, Card, ErrorNotice, Field, formatDollarAmount, formatTime, inputClass, Loading, PageTitle, StatusBadge } from '../ui'
import { usePagedList } from '../use-api'
import { useReview, waited } from '../use-review'

/** GET /api/console/returns's items (console/buyer_returns.py: ConsoleReturn); price in dollars. */
type ConsoleReturn = {
  id: string
  leadId: string
  leadReference: string | null
  reason: 'wrong_phone' | 'duplicate' | 'fraud' | 'under_18' | 'outside_filters' | 'other'
  note: string | null
  status: 'pending' | 'approved' | 'denied'
  price: number
  createdAt: string
  requestedBy: string
  decidedBy: string | null
  decidedAt: string | null
  decisionNote: string | null
  buyerId: string
  buyerName: string
}

const REASON_LABELS: Record<ConsoleReturn['reason'], string> = {
  wrong_phone: 'Wrong or disconnected phone',
  duplicate: 'Duplicate',
  fraud: 'Fake or fraudulent',
  under_18: 'Consumer under 18',
  outside_filters: "Outside the buyer's filters",
  other: 'Other',
}

const STATUSES = [
  { value: 'pending', label: 'Waiting for a decision' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied' },
]

/** One return; a decision updates it in place, so its outcome stays in sight until the list is reloaded. */
function ReturnCard({ item: listed, isAdmin }: { item: ConsoleReturn; isAdmin: boolean }) {
  const review = useReview(listed, 'returns', (decided, approving) => approving
    ? `Approved: ${formatDollarAmount(decided.price)} off ${decided.buyerName}'s bill.`
    : `Denied: ${decided.buyerName} sees your note.`)
  const { item } = review
  const reason = REASON_LABELS[item.reason] ?? item.reason

  return (
    <Card title={`${item.buyerName}: ${reason}`} actions={<StatusBadge status={item.status} />}>
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Buyer</dt><dd className="min-w-0 break-words">{item.buyerName}</dd>
        <dt className="text-slate-500">Lead</dt>
        <dd className="min-w-0 break-words">
          <Link className="inline-flex min-h-11 items-center font-medium text-brand-700 underline" to={PATHS.lead(item.leadId)}>
            {item.leadReference ?? 'open'}
          </Link>
        </dd>
        <dt className="text-slate-500">Reason</dt><dd>{reason}</dd>
        <dt className="text-slate-500">Their words</dt><dd className="min-w-0 whitespace-pre-line break-words">{item.note || '—'}</dd>
        <dt className="text-slate-500">Price</dt><dd className="tabular-nums">{formatDollarAmount(item.price)}</dd>
        <dt className="text-slate-500">Asked</dt>
        <dd className="min-w-0 break-words">{formatTime(item.createdAt)} ({waited(item.createdAt)} ago) by {item.requestedBy}</dd>
        <DecisionRows decidedAt={item.decidedAt} decidedBy={item.decidedBy} noteLabel="Note" note={item.decisionNote} />
      </dl>
      <ReviewActions review={review} isAdmin={isAdmin} what={`the return from ${item.buyerName}`} reader="buyer"
        approveLabel={`Take ${formatDollarAmount(item.price)} off`} denyLabel="Deny the return" />
    </Card>
  )
}

export default function ReturnsPage() {
  const { isAdmin } = useOperator()
  const filters = useFilters(['status'])
  const status = STATUSES.some((s) => s.value === filters.values.status) ? filters.values.status : 'pending'
  const list = usePagedList<ConsoleReturn>(`/returns?status=${status}`)
  return (
    <>
      <PageTitle>Returns</PageTitle>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        Buyers return leads with a reason, within their return window and their maximum return share. Test leads and
        duplicates of a lead the buyer already bought are approved at once; the rest wait here. An approval takes the
        lead&apos;s price off the buyer&apos;s bill and off the revenue.
      </p>
      <div className="mb-4 max-w-xs">
        <Field label="Show">
          <select className={inputClass} value={status} onChange={(e) => filters.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </Field>
      </div>
      <ErrorNotice message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="text-sm text-slate-500">No returns here.</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {list.items.map((item) => <ReturnCard key={item.id} item={item} isAdmin={isAdmin} />)}
      </div>
      {list.loading && <Loading />}
      {list.nextCursor && !list.loading && (
        <button type="button" className={buttonClass('secondary', 'mt-4')} onClick={list.loadMore}>Load more</button>
      )}
    </>
  )
}
