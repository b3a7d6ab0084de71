import { Link, useLocation } from 'react-router'
import { FullScreenLoader, useElapsed } from '../features/lead-form/full-screen-loader'
import { useCompleteRegistration } from '../lib/third-party/use-complete-registration'

const DEFAULT_MESSAGE = 'Thank you! Your request has been received. A local professional will be in touch soon.'

/** /thank-you: "Processing your answers..." for 4 s, then "Success!" with the service's message. */
export default function ThankYouPage() {
  const location = useLocation()
  const done = useElapsed()
  useCompleteRegistration()
  const message = (location.state as { successMessage?: string } | null)?.successMessage || DEFAULT_MESSAGE

  if (!done) return <FullScreenLoader title="Processing your answers..." />
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center px-4 py-12 text-center sm:py-20">
      <span aria-hidden="true" className="flex size-16 items-center justify-center rounded-full bg-green-100 text-3xl text-green-700">
        ✓
      </span>
      <h1 className="mt-6 text-3xl font-bold text-brand-900">Success!</h1>
      <p className="mt-4 text-lg text-slate-700">{message}</p>
      <Link to="/" className="mt-10 font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">
        Return Home
      </Link>
    </div>
  )
}
