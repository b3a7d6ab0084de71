// Buyers' returns (docs/console-api.md, "Buyers' returns"): the queue, waiting ones oldest first;
// an admin approves (the price comes off the buyer's bill and the revenue) or denies with a note.
import { Check, X } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { useFilters } from '../filters'
import { PATHS } from '../paths'
import { useOperator } from '../session'
import { CardNotices, DecisionRows, NoteForm } from '../status-list'
import { buttonClass, Card, ErrorNotice, Field, formatDollarAmount, formatTime, inputClass, Loading, PageTitle, StatusBadge } from '../ui'
import { usePagedList } from '../use-api'

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

/** How long a return has waited, in words: "3 h", "2 days". */
function age(createdAt: string, now = Date.now()): string {
  const hours = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 3_600_000))
  if (hours < 1) return 'under an hour'
  if (hours < 48) return `${hours} h`
  return `${Math.floor(hours / 24)} days`
}

type Deciding = 'approve' | 'deny' | null

/** One return; a decision updates it in place, so its outcome stays in sight until the list is reloaded. */
function ReturnCard({ item: listed, isAdmin }: { item: ConsoleReturn; isAdmin: boolean }) {
  const [item, setItem] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [deciding, setDeciding] = useState<Deciding>(null)
  const [note, setNote] = useState('')
  const reason = REASON_LABELS[item.reason] ?? item.reason

  const decide = () => {
    const approving = deciding === 'approve'
    void run(() => request<ConsoleReturn>('POST', `/returns/${encodeURIComponent(item.id)}/${approving ? 'approve' : 'deny'}`,
      approving ? (note.trim() ? { note } : {}) : { note }), (decided) => {
      setItem(decided)
      setDeciding(null)
      return [true, approving ? `Approved: ${formatDollarAmount(decided.price)} off ${decided.buyerName}'s bill.`
        : `Denied: ${decided.buyerName} sees your note.`]
    })
  }

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
        <dd className="min-w-0 break-words">{formatTime(item.createdAt)} ({age(item.createdAt)} ago) by {item.requestedBy}</dd>
        <DecisionRows decidedAt={item.decidedAt} decidedBy={item.decidedBy} noteLabel="Note" note={item.decisionNote} />
      </dl>
      <CardNotices error={error} notice={notice} />
      {isAdmin && item.status === 'pending' && !deciding && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} onClick={() => setDeciding('approve')}
            aria-label={`Approve the return from ${item.buyerName}`}>
            <Check size={16} aria-hidden="true" /> Approve
          </button>
          <button type="button" className={buttonClass('danger')} onClick={() => setDeciding('deny')}
            aria-label={`Deny the return from ${item.buyerName}`}>
            <X size={16} aria-hidden="true" /> Deny
          </button>
        </div>
      )}
      {deciding && item.status === 'pending' && (
        <NoteForm name={`${deciding === 'approve' ? 'Approve' : 'Deny'} the return from ${item.buyerName}`}
          label={deciding === 'approve' ? 'Note (optional, the buyer reads it)' : 'Why it is denied (the buyer reads it)'}
          required={deciding === 'deny'} value={note} onChange={setNote} busy={busy}
          submitLabel={deciding === 'approve' ? `Take ${formatDollarAmount(item.price)} off` : 'Deny the return'}
          variant={deciding === 'approve' ? 'primary' : 'danger'} onSubmit={decide} onCancel={() => setDeciding(null)} />
      )}
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
