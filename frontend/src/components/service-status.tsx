import { Link } from 'react-router'
import type { ServiceState } from '../lib/use-service'

/** What /form and /call show while the service loads, or when it is unknown or unreachable. */
export function ServiceStatus({ state }: { state: Exclude<ServiceState, { status: 'ready' }> }) {
  if (state.status === 'loading') {
    return <div role="status" aria-label="Loading" className="mx-auto mt-10 h-96 max-w-xl animate-pulse rounded-2xl bg-slate-100" />
  }
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold text-brand-900">
        {state.status === 'not-found' ? 'Service Not Found' : 'Something went wrong'}
      </h1>
      <p className="mt-4 text-slate-600">
        {state.status === 'not-found'
          ? "We couldn't find the service you're looking for."
          : `The service could not be loaded: ${state.message}`}
      </p>
      <Link to="/" className="mt-8 inline-block rounded-lg bg-accent-500 px-6 py-3 font-semibold text-white hover:bg-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
        Return Home
      </Link>
    </div>
  )
}
