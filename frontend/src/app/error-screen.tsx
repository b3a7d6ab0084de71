import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router'
import { paths } from '../lib/paths'
import { useMarkInteractive } from '../lib/typed-before-hydration'
import { Shell } from './root-layout'
import { isFunnelPath } from './routes'
import { usePageMetadata } from './use-page-metadata'

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : 'Unknown error'
}

/** The router's error screen (spec: "Unexpected Application Error!" with the status text or
 * message): unmatched routes and render errors both land here, inside the site's header, menu and
 * footer, so the visitor can carry on. An unknown URL arrives with it rendered at build time. */
export default function ErrorScreen() {
  const error = useRouteError()
  const { pathname } = useLocation()
  useMarkInteractive()
  usePageMetadata(pathname)
  return (
    <Shell funnel={isFunnelPath(pathname)} pathname={pathname}>
      <div className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:py-24">
        <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">Unexpected Application Error!</h1>
        <p className="mt-4 text-lg italic text-slate-700">{describe(error)}</p>
        <p className="mt-6 text-slate-700">
          {isRouteErrorResponse(error) && error.status === 404
            ? 'There is no page at this address. Start again from the home page, or choose a service from the menu.'
            : 'This page could not be shown. Start again from the home page, or choose a service from the menu.'}
        </p>
        <Link
          to={paths.home}
          className="mt-8 inline-flex min-h-12 items-center rounded-lg bg-accent-500 px-6 py-3 font-semibold text-white hover:bg-accent-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          Return Home
        </Link>
      </div>
    </Shell>
  )
}
