import { CircleCheck, Clock, Mail, PhoneCall, ShieldCheck } from 'lucide-react'
import { Link, Navigate, useLocation } from 'react-router'
import { FullScreenLoader, useElapsed } from '../components/full-screen-loader'
import { useCompleteRegistration } from '../lib/third-party/use-complete-registration'

/** What the lead form hands over after the server accepted the request. */
interface ThankYouState {
  successMessage?: string
  reference?: string
  providers?: string[]
  serviceName?: string
}

/** The lead's id is a UUID; its first eight characters find it and are short enough to read out. */
const shortReference = (leadId: string) => leadId.replace(/-/g, '').slice(0, 8).toUpperCase()

/** /thank-you: "Processing your answers..." for 4 s, then "Success!" with the service's message, the
 * reference, what happens next, and the matched providers. Opened without a request, it goes home. */
export default function ThankYouPage() {
  const state = (useLocation().state ?? {}) as ThankYouState
  if (!state.successMessage) return <Navigate to="/" replace />
  return <ThankYou {...state} successMessage={state.successMessage} />
}

function ThankYou({ successMessage, reference, providers = [], serviceName }: ThankYouState & { successMessage: string }) {
  const done = useElapsed()
  useCompleteRegistration()
  if (!done) return <FullScreenLoader title="Processing your answers..." />
  const steps = [
    {
      icon: PhoneCall,
      title: providers.length ? 'Your matched pros get in touch' : 'A local pro gets in touch',
      text: 'Expect a call or text at the number you gave us.',
    },
    { icon: Clock, title: 'Compare, free of charge', text: 'Ask each one about price, timing and experience. There is no obligation to hire.' },
    { icon: Mail, title: 'Keep your reference', text: 'Quote it if you write to us about this request.' },
  ]
  return (
    <div className="mx-auto w-full max-w-2xl flex-1 px-4 py-10 sm:py-16">
      <div className="text-center">
        <CircleCheck aria-hidden="true" className="mx-auto size-16 text-green-700" strokeWidth={1.75} />
        <h1 className="mt-4 text-3xl font-bold text-brand-900">Success!</h1>
        <p className="mt-4 text-lg text-slate-700">{successMessage}</p>
        {reference ? (
          <p className="mt-5 inline-flex flex-wrap items-center justify-center gap-2 rounded-full bg-brand-50 px-4 py-2 text-sm text-brand-900">
            <span>Your reference</span>
            <strong className="font-mono text-base tracking-wider">{shortReference(reference)}</strong>
          </p>
        ) : null}
      </div>

      {providers.length ? (
        <section aria-labelledby="matched-providers" className="mt-10 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
          <h2 id="matched-providers" className="text-lg font-bold text-brand-900">
            {serviceName ? `Your ${serviceName} matches` : 'Your matches'}
          </h2>
          <ul className="mt-3 divide-y divide-slate-100">
            {providers.map((name) => (
              <li key={name} className="flex items-center gap-3 py-3 font-semibold text-slate-800">
                <ShieldCheck aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
                {name}
              </li>
            ))}
          </ul>
        </section>
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
