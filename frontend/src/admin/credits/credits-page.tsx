import { Link } from 'react-router'
import type { components } from '../../lib/api-schema'
import { PATHS } from '../paths'
import { ReviewActions } from '../review-actions'
import { useOperator } from '../session'
import { DecisionRows, StatusListPage } from '../status-list'
import { Card, formatDollars, formatTime, StatusBadge } from '../ui'
import { useReview, waited } from '../use-review'

type Credit = components['schemas']['ConsoleCredit']

const STATUSES = [
  { value: 'pending', label: 'Waiting for a decision' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied' },
]

/** One request; a decision updates it in place, so its outcome stays in sight until the list is reloaded. */
function CreditCard({ credit: listed, isAdmin }: { credit: Credit; isAdmin: boolean }) {
  const review = useReview(listed, 'credits', (decided, approving) => approving
    ? `Approved: ${formatDollars(decided.amountCents)} credited to ${decided.providerName}.`
    : `Denied: ${decided.providerName} sees your note.`)
  const { item: credit } = review
  const title = `${credit.providerName}: ${credit.reasonLabel}`
  const place = [credit.serviceName, [credit.city, credit.state].filter(Boolean).join(', ')].filter(Boolean).join(' · ')

  return (
    <Card title={title} actions={<StatusBadge status={credit.status} />}>
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Provider</dt><dd className="min-w-0 break-words">{credit.providerName}</dd>
        <dt className="text-slate-500">Lead</dt>
        <dd className="min-w-0 break-words">
          {credit.leadId ? <Link className="inline-flex min-h-11 items-center font-medium text-brand-700 underline" to={PATHS.lead(credit.leadId)}>{credit.leadReference ?? 'open'}</Link> : 'erased'}
          {place ? ` · ${place}` : ''}
        </dd>
        <dt className="text-slate-500">Reason</dt><dd>{credit.reasonLabel}</dd>
        <dt className="text-slate-500">Their words</dt><dd className="min-w-0 whitespace-pre-line break-words">{credit.detail || '—'}</dd>
        <dt className="text-slate-500">Amount</dt><dd className="tabular-nums">{formatDollars(credit.amountCents)}</dd>
        <dt className="text-slate-500">Asked</dt><dd>{formatTime(credit.createdAt)} ({waited(credit.createdAt)} ago)</dd>
        <DecisionRows decidedAt={credit.decidedAt} decidedBy={credit.decidedBy} noteLabel="Note" note={credit.decisionNote} />
      </dl>
      <ReviewActions review={review} isAdmin={isAdmin} what={`the credit for ${credit.providerName}`} reader="provider"
        approveLabel={`Credit ${formatDollars(credit.amountCents)}`} denyLabel="Deny the credit" />
    </Card>
  )
}

export default function CreditsPage() {
  const { isAdmin } = useOperator()
  return (
    <StatusListPage<Credit> title="Credits" statuses={STATUSES} empty="No credit requests here."
      path={(status) => `/credits?status=${status}`}
      intro={<p className="mb-4 max-w-2xl text-sm text-slate-600">
        Providers ask for a lead&apos;s price back with a reason. Duplicates the records prove are credited at once;
        the rest wait here. An approval writes the credit to the provider&apos;s ledger.
      </p>}
      card={(c) => <CreditCard credit={c} isAdmin={isAdmin} />} />
  )
}
