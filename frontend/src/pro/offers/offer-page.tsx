import { ArrowLeft, MapPin } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { Link, useParams } from 'react-router'
import { buttonClasses } from '../../components/button-classes'
import { AnswersCard, ContactLinks } from '../../shell/portal-ui'
import { CreditSummary } from '../credit-status'
import { PortalError, providerPath, request } from '../api'
import { formatDate, formatDateTime, formatMoney, timeLeft } from '../format'
import type { Contact, CreditList, CreditRequestView, OfferDetail } from '../paying-types'
import { PATHS } from '../paths'
import { useSignedIn } from '../session'
import { Card, ErrorNotice, Loading } from '../ui'
import { useNow } from '../use-now'
import { CreditForm } from './credit-form'
import { canAccept, canRequestCredit, closedExplanation, stateLabel } from './filters'
import { ExclusiveBadge } from './offer-card'
import { useOfferEvents } from './use-offer-events'

const BackLink = () => (
  <Link to={PATHS.offers} className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 underline">
    <ArrowLeft size={16} aria-hidden="true" /> All offers
  </Link>
)

/** One offer: the job, then Accept or Decline; once accepted, the customer's contact details and credits. */
export default function OfferPage() {
  const { provider } = useSignedIn()
  const { offerId = '' } = useParams()
  const now = useNow()
  const [offer, setOffer] = useState<OfferDetail | null>(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const path = providerPath(provider.id, `/offers/${encodeURIComponent(offerId)}`)

  const reload = useCallback(() => request<OfferDetail>('GET', path).then(setOffer, (refusal: PortalError) => {
    if (refusal.status === 404) setMissing(true)
    else setError(refusal.message)
  }), [path])

  useEffect(() => void reload(), [reload])
  // Withdrawn or expired while on screen: the page says so without a reload.
  useOfferEvents(provider.id, { onChange: (change) => change.id === offerId && void reload(), onConnect: () => void reload() })

  const decide = async (action: 'accept' | 'decline') => {
    setBusy(true)
    setError(null)
    try {
      setOffer(await request<OfferDetail>('POST', `${path}/${action}`))
    } catch (failure) {
      setError((failure as PortalError).message)
      await reload()
    } finally {
      setBusy(false)
    }
  }

  if (missing) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold text-slate-900">Offer not found</h1>
        <p className="text-base text-slate-700">There is no offer of yours at this address.</p>
        <BackLink />
      </div>
    )
  }
  if (!offer) return <div className="space-y-4"><BackLink /><ErrorNotice message={error} />{error ? null : <Loading label="Loading the offer…" />}</div>

  const open = canAccept(offer, now)
  const closed = closedExplanation(offer, now)
  const left = open ? timeLeft(offer.expiresAt, now) : null
  return (
    <div className="space-y-4">
      <BackLink />
      <header className="space-y-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-slate-200 px-3 py-0.5 text-sm font-semibold text-slate-800">{stateLabel(offer, now)}</span>
          {offer.exclusive ? <ExclusiveBadge /> : null}
        </p>
        <h1 className="text-2xl font-bold text-slate-900">{offer.serviceName}</h1>
        <p className="flex items-center gap-1 text-base text-slate-700">
          <MapPin size={16} aria-hidden="true" className="shrink-0" /> {offer.city}, {offer.state} {offer.zip}
        </p>
        <p className="text-sm text-slate-600">Offered {formatDateTime(offer.createdAt)}{left ? ` · ${left}` : ''}</p>
      </header>

      <ErrorNotice message={error} />

      {open ? (
        <Card title="Take this lead?" id="decide-heading">
          <div className="space-y-3">
            <p className="text-base text-slate-800">
              Accepting costs <strong>{formatMoney(offer.priceCents)}</strong>
              {offer.exclusive ? ', and no other company gets this request' : ''}. You then see the customer’s name, phone and
              e-mail. Declining is free.
            </p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <button type="button" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy} onClick={() => void decide('accept')}>
                Accept for {formatMoney(offer.priceCents)}
              </button>
              <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy} onClick={() => void decide('decline')}>
                Decline
              </button>
            </div>
          </div>
        </Card>
      ) : null}
      {closed ? <p role="status" className="rounded-lg bg-slate-100 px-4 py-3 text-base text-slate-800">{closed}</p> : null}

      {offer.status === 'accepted' && offer.consentWithdrawn ? (
        <p role="status" className="rounded-lg bg-amber-50 px-4 py-3 text-base text-amber-900">
          The customer has since stopped this request: do not contact them about it. Their details are no longer shown.
        </p>
      ) : null}
      {offer.status === 'accepted' && offer.contact ? (
        <ContactCard contact={offer.contact} reference={offer.reference} offer={offer} />
      ) : null}

      <AnswersCard title="The customer’s answers" answers={offer.answers} listClassName="space-y-3" />

      {offer.status === 'accepted' ? <CreditCard offer={offer} now={now} path={path} providerId={provider.id} /> : null}
    </div>
  )
}

function ContactCard({ contact, reference, offer }: { contact: Contact; reference: string | null; offer: OfferDetail }) {
  return (
    <Card title="Contact the customer" id="contact-heading">
      <div className="space-y-2">
        <p className="text-lg font-bold text-slate-900">{contact.firstName} {contact.lastName}</p>
        <ContactLinks phone={contact.phone} email={contact.email} />
        <p className="text-base text-slate-800">
          {contact.street ? <>{contact.street}<br /></> : null}
          {contact.city}, {contact.state} {contact.zip}
        </p>
        <p className="border-t border-slate-200 pt-2 text-sm text-slate-600">
          {reference ? <>Lead reference <strong className="font-mono text-slate-900">{reference}</strong> · </> : null}
          {offer.autoAccepted ? 'accepted automatically' : 'accepted'}{offer.decidedAt ? ` ${formatDateTime(offer.decidedAt)}` : ''} ·
          charged {formatMoney(offer.priceCents)}
        </p>
      </div>
    </Card>
  )
}

function CreditCard({ offer, now, path, providerId }: { offer: OfferDetail; now: number; path: string; providerId: string }) {
  const [asking, setAsking] = useState(false)
  // The request as the credits list or the request's own answer has it, when the offer's answer
  // does not carry it.
  const [found, setFound] = useState<CreditRequestView | null>(null)
  useEffect(() => {
    if (offer.credit) return
    let current = true
    request<CreditList>('GET', providerPath(providerId, '/credits'))
      .then((list) => current && setFound(list.items.find((item) => item.offerId === offer.id) ?? null))
      .catch(() => undefined)  // the form stays; a repeated request is refused with its reason
    return () => void (current = false)
  }, [offer.credit, offer.id, providerId])
  const credit = offer.credit ?? found
  if (credit) {
    return <Card title="Credit request" id="credit-heading"><CreditSummary credit={credit} /></Card>
  }
  if (!canRequestCredit({ ...offer, credit }, now)) {
    return (
      <Card title="Credit request" id="credit-heading">
        <p className="text-sm text-slate-700">
          Credits can be asked for within a set time of accepting a lead
          {offer.creditableUntil ? `; for this lead that time ended ${formatDate(offer.creditableUntil)}` : ''}.
        </p>
      </Card>
    )
  }
  return (
    <Card title="Something wrong with this lead?" id="credit-heading">
      {asking ? (
        <CreditForm path={`${path}/credit`} priceCents={offer.priceCents} onDone={setFound} onCancel={() => setAsking(false)} />
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            If the phone is wrong, the job is outside your area or not your service, or it is a duplicate, ask for a credit of
            the {formatMoney(offer.priceCents)} until {formatDate(offer.creditableUntil!)}.
          </p>
          <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={() => setAsking(true)}>
            Request a credit
          </button>
        </div>
      )}
    </Card>
  )
}
