import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { PortalError, request, type PortalSession } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import { AuthFrame, ErrorNotice } from './ui'

export function SignIn() {
  const { signedIn, notice } = useSession()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [totp, setTotp] = useState('')
  // The code field appears once the server says this account needs one.
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(notice)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      signedIn(await request<PortalSession>('POST', '/session', needsTotp ? { email, password, totp } : { email, password }))
    } catch (failure) {
      const answer = failure as PortalError
      if (answer.body?.totpRequired) setNeedsTotp(true)
      setError(answer.message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame title="Sign in">
      <form onSubmit={submit} className="space-y-4">
        <ErrorNotice message={error} />
        <LabelledInput id="signin-email" label="E-mail" type="email" autoComplete="username" inputMode="email" required
          value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <LabelledInput id="signin-password" label="Password" type="password" autoComplete="current-password" required
          value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        {needsTotp && (
          <LabelledInput id="signin-code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code"
            pattern="[0-9]{6}" maxLength={6} required autoFocus value={totp} onChange={(e) => setTotp(e.currentTarget.value)} />
        )}
        <button type="submit" className={buttonClasses('primary', 'w-full')} disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="text-center text-sm">
          <Link to={PATHS.forgot} className="font-semibold text-brand-700 underline">Forgot your password?</Link>
        </p>
      </form>
    </AuthFrame>
  )
}
