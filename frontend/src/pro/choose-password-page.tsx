import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { PortalError, request, type PortalSession } from './api'
import { takeLinkToken } from './link-token'
import { PATHS } from './paths'
import { useSession } from './session'
import { AuthFrame, ErrorNotice } from './ui'

const MIN_LENGTH = 12

/** Choose a password through an invitation (welcome) or a password link (reset); then signed in. */
export default function ChoosePasswordPage({ welcome }: { welcome: boolean }) {
  const { signedIn } = useSession()
  const navigate = useNavigate()
  const [token] = useState(takeLinkToken)
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [totp, setTotp] = useState('')
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(token ? null : 'This link is not complete. Open it from the e-mail again.')
  const [spent, setSpent] = useState(!token)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (password !== again) {
      setError('The two passwords are not the same.')
      return
    }
    setBusy(true)
    setError(null)
    try {
      signedIn(await request<PortalSession>('POST', '/password', { token, password, ...(needsTotp ? { totp } : {}) }))
      navigate(PATHS.offers, { replace: true })
    } catch (failure) {
      const answer = failure as PortalError
      if (answer.body?.totpRequired) setNeedsTotp(true)
      if (answer.status === 410) setSpent(true)
      setError(answer.message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame title={welcome ? 'Welcome: choose your password' : 'Choose a new password'}>
      {spent ? (
        <div className="space-y-4">
          <ErrorNotice message={error} />
          <p className="text-sm text-slate-700">Ask for a new link: it is e-mailed to you and works for 1 hour.</p>
          <Link to={PATHS.forgot} className={buttonClasses('primary', 'w-full')}>E-mail me a new link</Link>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          {welcome ? <p className="text-sm text-slate-600">Your e-mail address is your sign-in name.</p> : null}
          <ErrorNotice message={error} />
          <LabelledInput id="new-password" label="New password" type="password" autoComplete="new-password" required
            minLength={MIN_LENGTH} hint={`At least ${MIN_LENGTH} characters.`} value={password}
            onChange={(e) => setPassword(e.currentTarget.value)} />
          <LabelledInput id="new-password-again" label="The same password again" type="password" autoComplete="new-password"
            required value={again} onChange={(e) => setAgain(e.currentTarget.value)} />
          {needsTotp && (
            <LabelledInput id="new-password-code" label="Authentication code" inputMode="numeric" autoComplete="one-time-code"
              maxLength={6} required value={totp} onChange={(e) => setTotp(e.currentTarget.value)} />
          )}
          <button type="submit" className={buttonClasses('primary', 'w-full')} disabled={busy}>
            {busy ? 'Saving…' : 'Save and sign in'}
          </button>
        </form>
      )}
    </AuthFrame>
  )
}
