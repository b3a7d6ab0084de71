import { Link, useLocation } from 'react-router'

export const DEFAULT_REASON = "We're unable to assist you at this time."
export const DEFAULT_SUGGESTION = 'Please try again later.'

/** /disqualified: why we cannot help, what to do instead, and the way home. */
export default function DisqualifiedPage() {
  const state = (useLocation().state ?? {}) as { reason?: string; suggestion?: string }
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center px-4 py-12 text-center sm:py-20">
      <h1 className="text-3xl font-bold text-brand-900">We're sorry...</h1>
      <p className="mt-6 text-lg text-slate-800">{state.reason || DEFAULT_REASON}</p>
      <p className="mt-3 text-slate-600">{state.suggestion || DEFAULT_SUGGESTION}</p>
      <Link
        to="/"
        className="mt-10 rounded-lg bg-accent-500 px-6 py-3 font-semibold text-white hover:bg-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        Return Home
      </Link>
    </div>
  )
}
