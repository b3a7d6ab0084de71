import { Check, X } from 'lucide-react'
import { useState } from 'react'
import type { components } from '../../lib/api-schema'
import { formatPhone } from '../../lib/phone'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { useOperator } from '../session'
import { CardNotices, DecisionRows, NoteForm, StatusListPage } from '../status-list'
import { buttonClass, Card, formatTime, StatusBadge } from '../ui'

type Application = components['schemas']['ApplicationItem']
type Decision = components['schemas']['Decision']

const STATUSES = [
  { value: 'pending', label: 'Waiting for review' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'unconfirmed', label: 'E-mail not confirmed' },
]

function mailNote(decision: Decision, done: string): [boolean, string] {
  return decision.email.sent ? [true, done] : [false, `${done.split(':')[0]}, but the e-mail was not sent: ${decision.email.error}`]
}

/** One application; a decision updates it in place, so its outcome stays in sight until the list is reloaded. */
function ApplicationCard({ application: listed, isAdmin }: { application: Application; isAdmin: boolean }) {
  const [application, setApplication] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [rejecting, setRejecting] = useState(false)
  const [reason, setReason] = useState('')
  const path = `/applications/${encodeURIComponent(application.id)}`
  const area = application.states.length ? application.states.join(', ')
    : `${application.zips.join(', ')}${application.radiusMiles ? ` (+${application.radiusMiles} mi)` : ''}`

  const approve = () => run(() => request<Decision>('POST', `${path}/approve`), (decision) => {
    setApplication(decision.application)
    return mailNote(decision, `Approved: ${application.businessName} is a provider in review mode and was e-mailed an invitation.`)
  })
  const reject = () => run(() => request<Decision>('POST', `${path}/reject`, { reason }), (decision) => {
    setApplication(decision.application)
    return mailNote(decision, 'Rejected: the applicant was e-mailed the reason.')
  })

  return (
    <Card title={application.businessName} actions={<StatusBadge status={application.status} />}>
      <dl className="grid grid-cols-[6.5rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Contact</dt><dd className="min-w-0 break-words">{application.contactName}</dd>
        <dt className="text-slate-500">E-mail</dt><dd className="min-w-0 break-all">{application.email}</dd>
        <dt className="text-slate-500">Phone</dt><dd>{formatPhone(application.phone)}</dd>
        <dt className="text-slate-500">Services</dt><dd className="min-w-0 break-words">{application.services.join(', ')}</dd>
        <dt className="text-slate-500">Area</dt><dd className="min-w-0 break-words">{area}</dd>
        <dt className="text-slate-500">Licence</dt>
        <dd>{application.licenceNumber ? `${application.licenceNumber} (${application.licenceState})` : '—'}</dd>
        <dt className="text-slate-500">Received</dt><dd>{formatTime(application.createdAt)}</dd>
        <DecisionRows decidedAt={application.decidedAt} decidedBy={application.decidedBy} noteLabel="Reason"
          note={application.rejectReason} />
      </dl>
      <CardNotices error={error} notice={notice} />
      {isAdmin && application.status === 'pending' && !rejecting && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => void approve()}
            aria-label={`Approve ${application.businessName}`}>
            <Check size={16} aria-hidden="true" /> Approve and invite
          </button>
          <button type="button" className={buttonClass('danger')} disabled={busy} onClick={() => setRejecting(true)}
            aria-label={`Reject ${application.businessName}`}>
            <X size={16} aria-hidden="true" /> Reject
          </button>
        </div>
      )}
      {rejecting && application.status === 'pending' && (
        <NoteForm name={`Reject ${application.businessName}`} label="Reason (e-mailed to the applicant)" required
          value={reason} onChange={setReason} submitLabel="Send the rejection" variant="danger" busy={busy}
          onSubmit={reject} onCancel={() => setRejecting(false)} />
      )}
    </Card>
  )
}

export default function ApplicationsPage() {
  const { isAdmin } = useOperator()
  return (
    <StatusListPage<Application> title="Applications" statuses={STATUSES} empty="No applications here."
      path={(status) => `/applications?status=${status}`}
      card={(a) => <ApplicationCard application={a} isAdmin={isAdmin} />} />
  )
}
