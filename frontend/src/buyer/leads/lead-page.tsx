import { ArrowLeft, MapPin } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { Link, useParams } from 'react-router'
import { AnswersCard, ContactLinks } from '../../shell/portal-ui'
import { BuyerError, leadPath, request } from '../api'
import { LeadStatusBadge } from '../badges'
import { formatDate, formatDateTime, formatDollars } from '../format'
import { PATHS } from '../paths'
import type { BuyerLead, LeadContact } from '../types'
import { Card, ErrorNotice, Loading } from '../ui'
import { AttemptsCard } from './attempts-card'
import { ConsentCard } from './consent-card'
import { FeedbackCard } from './feedback-card'
import { ReturnCard } from './return-card'

const BackLink = () => (
  <Link to={PATHS.leads} className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 underline">
    <ArrowLeft size={16} aria-hidden="true" /> All leads
  </Link>
)

/** One lead bought: the person and their answers, the consent proof, the posts, a return and feedback. */
export default function LeadPage() {
  const { leadId = '' } = useParams()
  // Another lead's page starts afresh, with nothing of the one before.
  return <LeadView key={leadId} leadId={leadId} />
}

function LeadView({ leadId }: { leadId: string }) {
  const [lead, setLead] = useState<BuyerLead | null>(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const reload = useCallback(() => request<BuyerLead>('GET', leadPath(leadId)).then(setLead, (refusal: BuyerError) => {
    // Another buyer's lead, or none: the same answer, with nothing in it.
    if (refusal.status === 404) setMissing(true)
    else setError(refusal.message)
  }), [leadId])

  useEffect(() => {
    void reload()
  }, [reload])

  if (missing) {
    return (
      <div className="space-y-4">
        <BackLink />
        <h1 className="text-2xl font-bold text-slate-900">Lead not found</h1>
        <p className="text-base text-slate-700">There is no lead of yours at this address.</p>
      </div>
    )
  }
  if (!lead) return <div className="space-y-4"><BackLink /><ErrorNotice message={error} />{error ? null : <Loading label="Loading the lead…" />}</div>

  return (
    <div className="space-y-4">
      <BackLink />
      <header className="space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <LeadStatusBadge status={lead.status} />
          {lead.exclusive ? <span className="rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-bold text-orange-900">Exclusive</span> : null}
        </p>
        <h1 className="text-2xl font-bold text-slate-900">Lead <span className="font-mono">{lead.reference}</span></h1>
        <p className="flex items-center gap-1 text-base text-slate-800">
          <MapPin size={16} aria-hidden="true" className="shrink-0" /> {lead.serviceName} · {[lead.state, lead.zip].filter(Boolean).join(' ')}
        </p>
        <p className="text-sm text-slate-600">Bought {formatDateTime(lead.boughtAt)} for {formatDollars(lead.price)}</p>
      </header>
      <ErrorNotice message={error} />
      <Withdrawn lead={lead} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-4">
          {lead.contact ? <ContactCard contact={lead.contact} /> : null}
          <AnswersCard title="The consumer’s answers" answers={lead.answers} listClassName="grid gap-3 sm:grid-cols-2" />
          <ConsentCard reference={lead.reference} proof={lead.consent} />
        </div>
        <div className="min-w-0 space-y-4">
          <ReturnCard lead={lead} onReturned={() => void reload()} />
          <FeedbackCard lead={lead} onSent={() => void reload()} />
        </div>
      </div>
      <AttemptsCard attempts={lead.attempts} />
    </div>
  )
}

/** A lead whose consumer stopped the request, or whose personal data was erased: said plainly. */
function Withdrawn({ lead }: { lead: BuyerLead }) {
  if (!lead.withdrawn) return null
  const text = lead.withdrawn.kind === 'stopped'
    ? `The consumer withdrew their consent on ${formatDate(lead.withdrawn.at)}: do not call, text or e-mail them about this request. Their details are no longer shown.`
    : `This lead’s personal data was erased on ${formatDate(lead.withdrawn.at)}. Its reference, sale and delivery record remain.`
  return <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-base text-amber-900">{text}</p>
}

function ContactCard({ contact }: { contact: LeadContact }) {
  return (
    <Card title="Contact" id="contact-heading">
      <div className="space-y-1">
        <p className="text-lg font-bold text-slate-900">{contact.firstName} {contact.lastName}</p>
        <ContactLinks phone={contact.phone} email={contact.email} />
        <p className="text-base text-slate-800">
          {contact.address ? <>{contact.address}<br /></> : null}
          {[contact.city, [contact.state, contact.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
        </p>
      </div>
    </Card>
  )
}
