import { EyeOff } from 'lucide-react'
import { useState } from 'react'
import { Stars } from '../../components/stars'
import type { components } from '../../lib/api-schema'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { useOperator } from '../session'
import { CardNotices, DecisionRows, NoteForm, StatusListPage } from '../status-list'
import type { Provider } from '../types'
import { buttonClass, Card, formatTime, PageTitle, StatusBadge } from '../ui'
import { useApi } from '../use-api'

type Review = components['schemas']['ConsoleReview']

// The server keeps a hiding's reason in the audit log, up to this many characters.
const REASON_MAX = 500

/** One review; hiding it updates it in place, so its new state stays in sight until the list is reloaded. */
function ReviewCard({ review: listed }: { review: Review }) {
  const [review, setReview] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [hiding, setHiding] = useState(false)
  const [reason, setReason] = useState('')
  const place = [review.city, review.state].filter(Boolean).join(', ')

  const hide = () => {
    void run(() => request<Review>('POST', `/reviews/${encodeURIComponent(review.id)}/hide`, { reason }), (hidden) => {
      setReview(hidden)
      setHiding(false)
      return [true, `Hidden: left out of ${hidden.providerName}'s rating and list. The reason is in the audit log.`]
    })
  }

  return (
    <Card title={`${review.providerName}: ${review.stars} of 5`}
      actions={<StatusBadge status={review.hiddenAt ? 'hidden' : 'shown'} />}>
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Provider</dt><dd className="min-w-0 break-words">{review.providerName}</dd>
        <dt className="text-slate-500">Stars</dt>
        <dd className="flex flex-wrap items-center gap-2"><Stars stars={review.stars} /></dd>
        <dt className="text-slate-500">Their words</dt>
        <dd className="min-w-0 whitespace-pre-line break-words">{review.text || '—'}</dd>
        <dt className="text-slate-500">Where</dt><dd className="min-w-0 break-words">{place || '—'}</dd>
        <dt className="text-slate-500">Written</dt><dd>{formatTime(review.createdAt)}</dd>
        <DecisionRows label="Hidden" decidedAt={review.hiddenAt} decidedBy={review.hiddenBy} />
      </dl>
      <CardNotices error={error} notice={notice} />
      {!review.hiddenAt && !hiding && (
        <div className="mt-3">
          <button type="button" className={buttonClass('danger')} onClick={() => setHiding(true)}
            aria-label={`Hide the review of ${review.providerName}`}>
            <EyeOff size={16} aria-hidden="true" /> Hide
          </button>
        </div>
      )}
      {hiding && !review.hiddenAt && (
        <NoteForm name={`Hide the review of ${review.providerName}`}
          label="Why it is hidden (kept in the audit log)" required maxLength={REASON_MAX}
          value={reason} onChange={setReason} busy={busy} submitLabel="Hide the review" variant="danger"
          onSubmit={hide} onCancel={() => setHiding(false)} />
      )}
    </Card>
  )
}

function AdminReviews() {
  // The filter's choices: every provider by name (the list is small enough to pick from).
  const { data: providers } = useApi<{ items: Provider[] }>('/providers')
  const choices = [{ value: '', label: 'All providers' },
    ...[...(providers?.items ?? [])].sort((a, b) => a.name.localeCompare(b.name)).map((p) => ({ value: String(p.id), label: p.name }))]
  return (
    <StatusListPage<Review> title="Reviews" filterLabel="Provider" statuses={choices} empty="No reviews here."
      path={(providerId) => (providerId ? `/reviews?providerId=${encodeURIComponent(providerId)}` : '/reviews')}
      intro={<p className="mb-4 max-w-2xl text-sm text-slate-600">
        Consumers rate a provider a week after it accepted their lead. Newest first, the latest 200. Hiding a
        review takes it out of the provider&apos;s rating and list for good; the reason goes to the audit log.
      </p>}
      card={(r) => <ReviewCard review={r} />} />
  )
}

export default function ReviewsPage() {
  const { isAdmin } = useOperator()
  if (isAdmin) return <AdminReviews />
  return (
    <>
      <PageTitle>Reviews</PageTitle>
      <p className="max-w-2xl text-sm text-slate-600">
        Only admins may read and hide consumers&apos; reviews. Ask an admin if a review needs looking at.
      </p>
    </>
  )
}
