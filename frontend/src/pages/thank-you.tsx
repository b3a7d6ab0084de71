import { CircleCheck, Clock, Hash, Mail, PhoneCall } from 'lucide-react'
import { Link, Navigate } from 'react-router'
import { FullScreenLoader, LOADER_MS, useElapsed } from '../components/full-screen-loader'
import { outcomeOf, REVIEW_WORDS, STATUS_GRACE_MS, useLeadStatus } from '../features/lead-status/lead-status'
import { STORAGE_KEYS } from '../lib/storage-keys'
import { useCompleteRegistration } from '../lib/third-party/use-complete-registration'
import type { Accepted } from '../questionnaire/submit'
import { RecipientList } from './recipient-list'
import { useThanksState } from './thanks-state'

/** What the lead form hands over after the server accepted the request. */
type ThankYouState = Partial<Accepted> & { successMessage: string }

const usable = (state: Partial<ThankYouState>): state is ThankYouState => Boolean(state.successMessage)

const WAIT_MS = LOADER_MS + STATUS_GRACE_MS

/** /thank-you: "Processing your answers..." for 4 s while it asks what became of the request (a few
 * seconds more while routing is still deciding), then what is true: who will contact the visitor,
 * with the service's success message; or that no company has the request; or, when routing has not
 * finished, that it is saved. A reload draws the same page (thanks-state.ts); opened without a
 * request, it goes home. */
export default function ThankYouPage() {
  const state = useThanksState<ThankYouState>(STORAGE_KEYS.thankYou, usable)
  if (!state) return <Navigate to="/" replace />
  return <ThankYou {...state} />
}

function ThankYou({ successMessage, reference, requestId, statusToken }: ThankYouState) {
  const status = useLeadStatus(requestId, statusToken, WAIT_MS)
  const shown = useElapsed()
  const waited = useElapsed(WAIT_MS)
  useCompleteRegistration()
  const asking = Boolean(requestId && statusToken)
  if (!shown || (asking && !status?.finished && !waited)) return <FullScreenLoader title="Processing your answers..." />

  const outcome = outcomeOf(status)
  const mailed = status?.receiptEmail === true
  const companies = outcome.kind === 'received' ? outcome.companies : []
  const ratings = outcome.kind === 'received' ? outcome.ratings : {}
  const offered = outcome.kind === 'received' || outcome.kind === 'offered' ? outcome.offered : 0
  const pros = offered > 1 ? `${offered} local pros` : 'a local pro'
  const whenTaken = mailed ? 'When one takes it on, we will e-mail you its name.' : 'When one takes it on, it will contact you.'
  const more = {
    icon: Mail,
    title: 'More pros may take it on',
    text: `${offered > 1 ? `${offered} more local pros see` : 'One more local pro sees'} your job, without your contact details. ${
      mailed ? 'If one takes it on, we will e-mail you its name.' : 'If one takes it on, it will contact you.'}`,
  }
  const keep = {
    icon: Hash,
    title: 'Keep your reference',
    text: `Quote it if you write to us about this request.${mailed ? ' Your e-mail receipt has it too.' : ''}`,
  }
  const steps = companies.length
    ? [
        { icon: PhoneCall, title: 'Expect a call or text', text: `From ${companies.length > 1 ? 'the companies' : 'the company'} above, at the number you gave us.` },
        { icon: Clock, title: 'Free, with no obligation', text: 'Ask about price, timing and experience. You do not have to hire anyone.' },
        ...(offered ? [more] : []),
        keep,
      ]
    : [
        ...(mailed
          ? [{
              icon: Mail,
              title: 'Check your e-mail',
              text: outcome.kind === 'saved'
                ? 'Your receipt names every company that may contact you about this request.'
                : 'Your receipt repeats what you asked for and the consent you gave.',
            }]
          : []),
        keep,
      ]
  const message = companies.length
    ? successMessage
    : outcome.kind === 'offered'
      ? `Your request is with ${pros}, who can see the job but not your contact details. ${whenTaken}`
      : outcome.kind === 'reviewing' || outcome.kind === 'declined'
      ? `${REVIEW_WORDS[outcome.kind]}${mailed ? ' We are e-mailing you a copy of your request.' : ''}`
      : outcome.kind === 'nobody'
      ? `Your request is saved, but no company has it yet.${mailed ? ' We are e-mailing you a copy of it.' : ''}`
      : `Your request is saved. We are still finding who can help you.${mailed ? ' An e-mail will follow, naming who may contact you about it.' : ''}`

  return (
    <div className="mx-auto w-full max-w-2xl flex-1 px-4 py-10 sm:py-16">
      <div className="text-center">
        <CircleCheck aria-hidden="true" className="mx-auto size-16 text-green-700" strokeWidth={1.75} />
        <h1 className="mt-4 text-3xl font-bold text-brand-900">{companies.length ? 'Success!' : 'We have your request'}</h1>
        <p className="mt-4 text-lg text-slate-700">{message}</p>
        {reference ? (
          <p className="mt-5 inline-flex flex-wrap items-center justify-center gap-2 rounded-full bg-brand-50 px-4 py-2 text-sm text-brand-900">
            <span>Your reference</span>
            <strong className="font-mono text-base tracking-wider">{reference}</strong>
          </p>
        ) : null}
      </div>

      {companies.length ? (
        <RecipientList title="Who will contact you" companies={companies} ratings={ratings} status={status} />
      ) : null}

      <section aria-labelledby="what-next" className="mt-10">
        <h2 id="what-next" className="text-lg font-bold text-brand-900">What happens next</h2>
        <ol className="mt-4 space-y-4">
          {steps.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <div>
                <p className="font-semibold text-slate-900">{title}</p>
                <p className="text-sm text-slate-600">{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <p className="mt-10 text-center">
        <Link to="/" className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
          Return Home
        </Link>
      </p>
    </div>
  )
}
