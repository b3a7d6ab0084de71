// Under a queue's card (use-review.ts): what the last decision said, and an admin's Approve and Deny
// with the note's form.
import { Check, X } from 'lucide-react'
import { CardNotices, NoteForm } from './status-list'
import { buttonClass } from './ui'
import type { Review } from './use-review'

/** The card's notices, then, while the request waits, an admin's Approve and Deny and the note's form.
 * `what` names the request ("the return from …"), `reader` who reads the note. */
export function ReviewActions<T extends { status: string }>({ review, isAdmin, what, reader, approveLabel, denyLabel }: {
  review: Review<T>
  isAdmin: boolean
  what: string
  reader: string
  approveLabel: string
  denyLabel: string
}) {
  const { item, deciding, setDeciding } = review
  return (
    <>
      <CardNotices error={review.error} notice={review.notice} />
      {isAdmin && item.status === 'pending' && !deciding && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} onClick={() => setDeciding('approve')}
            aria-label={`Approve ${what}`}>
            <Check size={16} aria-hidden="true" /> Approve
          </button>
          <button type="button" className={buttonClass('danger')} onClick={() => setDeciding('deny')}
            aria-label={`Deny ${what}`}>
            <X size={16} aria-hidden="true" /> Deny
          </button>
        </div>
      )}
      {deciding && item.status === 'pending' && (
        <NoteForm name={`${deciding === 'approve' ? 'Approve' : 'Deny'} ${what}`}
          label={deciding === 'approve' ? `Note (optional, the ${reader} reads it)` : `Why it is denied (the ${reader} reads it)`}
          required={deciding === 'deny'} value={review.note} onChange={review.setNote} busy={review.busy}
          submitLabel={deciding === 'approve' ? approveLabel : denyLabel}
          variant={deciding === 'approve' ? 'primary' : 'danger'} onSubmit={review.decide} onCancel={() => setDeciding(null)} />
      )}
    </>
  )
}
