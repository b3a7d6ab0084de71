import { useState, type FormEvent } from 'react'
import { ConsoleError, request } from './api'
import { useSession } from './session'
import type { SessionAnswer } from './types'
import { buttonClass, ErrorNotice, Field, inputClass } from './ui'

export function SignIn({ loadError }: { loadError: string | null }) {
  const { signedIn } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [totp, setTotp] = useState('')
  // The code field appears once the server says this account needs one.
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(loadError)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const body = needsTotp ? { email, password, totp } : { email, password }
      signedIn(await request<SessionAnswer>('POST', '/session', body))
    } catch (failure) {
      const answer = failure as ConsoleError
      if (answer.body?.totpRequired) {
        const first = !needsTotp
        setNeedsTotp(true)
        setError(first ? 'Enter the 6-digit code from your authenticator app.' : answer.message)
      } else {
        setError(answer.message)
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-16">
      <form onSubmit={submit} className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-bold text-slate-900">Sign in to the ServiceMatch console</h1>
        <ErrorNotice message={error} />
        <Field label="E-mail">
          <input className={inputClass} type="email" autoComplete="username" required value={email}
            onChange={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field label="Password">
          <input className={inputClass} type="password" autoComplete="current-password" required value={password}
            onChange={(e) => setPassword(e.currentTarget.value)} />
        </Field>
        {needsTotp && (
          <Field label="Authentication code">
            <input className={inputClass} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}"
              maxLength={6} required autoFocus value={totp} onChange={(e) => setTotp(e.currentTarget.value)} />
          </Field>
        )}
        <button type="submit" className={buttonClass('primary', 'w-full')} disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
