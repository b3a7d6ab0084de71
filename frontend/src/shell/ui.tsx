// The pieces every signed-in app shows the same way; each app gives its notices their own shape.
import type { ReactNode } from 'react'

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <p role="status" className="py-6 text-sm text-slate-500">{label}</p>
}

/** An error (an alert) or a success (a status) in a line of its own; nothing without a message.
 * Each app gives it its corners and padding (e.g. 'rounded-md', 'px-3 py-2'). */
export function Notice({ kind, message, rounded, padding }: {
  kind: 'error' | 'success'
  message: string | null | undefined
  rounded: string
  padding: string
}) {
  if (!message) return null
  return kind === 'error'
    ? <p role="alert" className={`${rounded} bg-red-50 ${padding} text-sm text-red-800`}>{message}</p>
    : <p role="status" className={`${rounded} bg-green-50 ${padding} text-sm text-green-800`}>{message}</p>
}

/** What the sign-in gate shows: a check of the session first, then the sign-in form or the app. */
export function SignedInGate({ checking, signedIn, signIn, children }: {
  checking: boolean
  signedIn: boolean
  signIn: ReactNode
  children: ReactNode
}) {
  if (checking) return <Loading label="Checking your session…" />
  // Signed out on any path: sign in here, then the page asked for opens.
  return signedIn ? children : signIn
}
