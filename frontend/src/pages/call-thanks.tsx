import { CircleCheck } from 'lucide-react'
import { useEffect } from 'react'
import { Navigate } from 'react-router'
import { CallCentreClosed } from '../features/call-flow/call-centre-closed'
import { hoursInWords, useCallCentre, type CallHours } from '../features/call-flow/call-hours'
import { PhoneLink } from '../features/call-flow/phone-link'
import { outcomeOf, REVIEW_WORDS, STATUS_GRACE_MS, useLeadStatus } from '../features/lead-status/lead-status'
import { LOADER_MS, useElapsed } from '../components/full-screen-loader'
import type { FunnelService } from '../lib/funnel-events'
import { STORAGE_KEYS } from '../lib/storage-keys'
import type { LeadStatus } from '../lib/types'
import { loadCallTracking } from '../lib/third-party/call-tracking'
import { useCompleteRegistration } from '../lib/third-party/use-complete-registration'
import type { Accepted } from '../questionnaire/submit'
import { RecipientList } from './recipient-list'
import { useThanksState } from './thanks-state'

/** What the call flow hands over: the service's number and texts, and, when the server accepted the
 * answers, the submit answer (reference, request id, status token). */
type CallThanksState = Partial<Accepted> & {
  phoneNumber: string
  callToAction?: string
  jsid?: string
  service?: string
  vertical?: string
  callHours?: CallHours
  successMessage?: string
}

const usable = (state: Partial<CallThanksState>): state is CallThanksState => Boolean(state.phoneNumber)
// How long the page keeps asking who has the request: as long as the form's thank-you page waits.
const STATUS_WAIT_MS = LOADER_MS + STATUS_GRACE_MS

/** /call-thanks: at once, with no pretend availability check, the reference, the number to call and
 * the call centre's hours (from the catalogue); then who has the request, as the thank-you page
 * says it. No wait time or agent count: nothing reports them (docs/site-claims.md). A reload draws
 * the same page (thanks-state.ts); opened without the call flow, it goes home. */
export default function CallThanksPage() {
  const state = useThanksState<CallThanksState>(STORAGE_KEYS.callThanks, usable)
  if (!state) return <Navigate to="/" replace />
  return <CallThanks {...state} />
}

function CallThanks({
  phoneNumber, callToAction, jsid, service: serviceId, vertical, callHours: hours, successMessage, reference, requestId,
  statusToken,
}: CallThanksState) {
  const config = useCompleteRegistration()
  const centre = useCallCentre(hours)
  const status = useLeadStatus(requestId, statusToken, STATUS_WAIT_MS)
  const service: FunnelService | undefined = serviceId ? { id: serviceId, vertical: vertical ?? '' } : undefined
  useEffect(() => {
    // The tracking script swaps in the number that attributes this call.
    if (config && jsid) loadCallTracking(config.callTrackingScriptUrl, jsid)
  }, [config, jsid])

  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center px-4 py-10 text-center sm:py-16">
      <CircleCheck aria-hidden="true" className="size-14 text-green-700" strokeWidth={1.75} />
      <h1 className="mt-4 text-2xl font-bold leading-snug text-brand-900 sm:text-3xl">
        {reference ? 'Thank you! We have your request.' : 'Thank you! Call us to continue.'}
      </h1>
      {reference && successMessage ? <p className="mt-4 text-lg text-slate-700">{successMessage}</p> : null}
      {reference ? (
        <p className="mt-5 inline-flex flex-wrap items-center justify-center gap-2 rounded-full bg-brand-50 px-4 py-2 text-sm text-brand-900">
          <span>Your reference</span>
          <strong className="font-mono text-base tracking-wider">{reference}</strong>
        </p>
      ) : null}
      {centre?.open ? (
        <>
          {callToAction && <p className="mt-6 text-lg text-slate-700">{callToAction}</p>}
          <p className="mt-6 text-lg font-semibold text-slate-900">Call before {centre.closes} to speak with an agent:</p>
          <PhoneLink
            phoneNumber={phoneNumber}
            pixelId={config?.pixelId ?? ''}
            asButton
            className="mt-3"
            service={service}
          />
          {hours ? <p className="mt-4 text-sm text-slate-600">Agents take calls {hoursInWords(hours)}.</p> : null}
        </>
      ) : centre && hours ? (
        <div className="mt-8 rounded-xl bg-slate-50 px-6 py-4">
          <CallCentreClosed hours={hours} centre={centre} />
        </div>
      ) : null}
      {requestId && statusToken ? <WhoHasIt status={status} /> : null}
    </div>
  )
}

/** Who has the request, as the status answer says: the companies by name and kind once routing has
 * finished, a plain line while it has not. */
function WhoHasIt({ status }: { status: LeadStatus | null }) {
  const waited = useElapsed(STATUS_WAIT_MS)
  const outcome = outcomeOf(status)
  if (outcome.kind === 'received') {
    return <RecipientList title="Who may call you" companies={outcome.companies} ratings={outcome.ratings} status={status} />
  }
  const mailed = status?.receiptEmail === true
  const line =
    outcome.kind === 'reviewing' || outcome.kind === 'declined'
      ? `${REVIEW_WORDS[outcome.kind]}${mailed ? ' We are e-mailing you a copy of your request.' : ''}`
      : outcome.kind === 'offered' || outcome.kind === 'nobody'
      ? `No company has your contact details yet.${mailed ? ' We are e-mailing you a copy of your request.' : ''}`
      : waited
        ? `We are still finding who can help you.${mailed ? ' An e-mail will follow, naming who may contact you.' : ''}`
        : 'Finding out who has your request...'
  return (
    <p role="status" className="mt-8 text-sm text-slate-600">
      {line}
    </p>
  )
}
