import { Check, X } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import type { components } from '../../lib/api-schema'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { PATHS } from '../paths'
import { useOperator } from '../session'
import { CardNotices, DecisionRows, NoteForm, StatusListPage } from '../status-list'
import { buttonClass, Card, formatDollars, formatTime, StatusBadge } from '../ui'

type Credit = components['schemas']['ConsoleCredit']

const STATUSES = [
  { value: 'pending', label: 'Waiting for a decision' },
  { value: 'approved', label: 'Approved' },
  { value: 'denied', label: 'Denied' },
]

/** How long a request has waited, in words: "3 h", "2 days". */
function age(createdAt: string, now = Date.now()): string {
  const hours = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 3_600_000))
  if (hours < 1) return 'under an hour'
  if (hours < 48) return `${hours} h`
  return `${Math.floor(hours / 24)} days`
}

type Deciding = 'approve' | 'deny' | null

/** One request; a decision updates it in place, so its outcome stays in sight until the list is reloaded. */
function CreditCard({ credit: listed, isAdmin }: { credit: Credit; isAdmin: boolean }) {
  const [credit, setCredit] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [deciding, setDeciding] = useState<Deciding>(null)
  const [note, setNote] = useState('')
  const title = `${credit.providerName}: ${credit.reasonLabel}`
  const place = [credit.serviceName, [credit.city, credit.state].filter(Boolean).join(', ')].filter(Boolean).join(' · ')

  const decide = () => {
    const approving = deciding === 'approve'
    void run(() => request<Credit>('POST', `/credits/${encodeURIComponent(credit.id)}/${approving ? 'approve' : 'deny'}`,
      approving ? (note.trim() ? { note } : {}) : { note }), (decided) => {
      setCredit(decided)
      setDeciding(null)
      return [true, approving ? `Approved: ${formatDollars(decided.amountCents)} credited to ${decided.providerName}.`
        : `Denied: ${decided.providerName} sees your note.`]
    })
  }

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
        <dt className="text-slate-500">Asked</dt><dd>{formatTime(credit.createdAt)} ({age(credit.createdAt)} ago)</dd>
        <DecisionRows decidedAt={credit.decidedAt} decidedBy={credit.decidedBy} noteLabel="Note" note={credit.decisionNote} />
      </dl>
      <CardNotices error={error} notice={notice} />
      {isAdmin && credit.status === 'pending' && !deciding && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} onClick={() => setDeciding('approve')}
            aria-label={`Approve the credit for ${credit.providerName}`}>
            <Check size={16} aria-hidden="true" /> Approve
          </button>
          <button type="button" className={buttonClass('danger')} onClick={() => setDeciding('deny')}
            aria-label={`Deny the credit for ${credit.providerName}`}>
            <X size={16} aria-hidden="true" /> Deny
          </button>
        </div>
      )}
      {deciding && credit.status === 'pending' && (
        <NoteForm name={`${deciding === 'approve' ? 'Approve' : 'Deny'} the credit for ${credit.providerName}`}
          label={deciding === 'approve' ? 'Note (optional, the provider reads it)' : 'Why it is denied (the provider reads it)'}
          required={deciding === 'deny'} value={note} onChange={setNote} busy={busy}
          submitLabel={deciding === 'approve' ? `Credit ${formatDollars(credit.amountCents)}` : 'Deny the credit'}
          variant={deciding === 'approve' ? 'primary' : 'danger'} onSubmit={decide} onCancel={() => setDeciding(null)} />
      )}
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
