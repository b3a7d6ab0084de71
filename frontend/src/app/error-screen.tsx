import { isRouteErrorResponse, useRouteError } from 'react-router'
import { Logo } from '../components/logo'

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`
  if (error instanceof Error) return error.message
  return typeof error === 'string' ? error : 'Unknown error'
}

/** The router's error screen: unmatched routes and render errors both land here. */
export default function ErrorScreen() {
  const error = useRouteError()
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 px-4 py-3">
        <Logo />
      </header>
      <main className="mx-auto w-full max-w-2xl flex-1 px-4 py-16">
        <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">Unexpected Application Error!</h1>
        <p className="mt-4 text-lg italic text-slate-700">{describe(error)}</p>
        <a href="/" className="mt-8 inline-block font-semibold text-brand-700 underline">
          Return Home
        </a>
      </main>
    </div>
  )
}
