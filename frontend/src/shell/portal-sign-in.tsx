// The pages the provider portal and the buyer portal show before signing in: the sign-in form, the
// page an e-mailed sign-in link opens, asking for a password link, and choosing a password through
// an invitation or a password link. The two portals' servers answer them alike under their own
// prefix, so each portal passes its client, its audience and its paths.
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { takeLinkToken } from '../lib/link-token'
import { AuthFrame, ErrorNotice, SuccessNotice } from './portal-ui'
import type { SessionApiError, SessionClient } from './session-client'
import { SignInForm } from './sign-in'
import { INCOMPLETE, SignInLinkForm } from './sign-in-link'

// A link under a form: tall enough to tap on a phone.
const footLinkClass = 'inline-flex min-h-11 items-center font-semibold text-brand-700 underline'

const SIGN_IN_IDS = { email: 'signin-email', password: 'signin-password', totp: 'signin-code' } as const

const MIN_PASSWORD_LENGTH = 12

export function PortalSignIn<S>({ client, audience, signedIn, notice, intro, forgotPath }: {
  client: SessionClient
  audience: string
  signedIn: (answer: S) => void
  notice: string | null
  // A line under the title saying whom the portal is for, where the brand's words are not enough.
  intro?: string
  forgotPath: string
}) {
  return (
    <SignInForm<S>
      client={client}
      signedIn={signedIn}
      notice={notice}
      frame={(form) => <AuthFrame audience={audience} title="Sign in">{form}</AuthFrame>}
      formClassName="space-y-4"
      heading={intro ? <p className="text-sm text-slate-600">{intro}</p> : undefined}
      renderField={({ name, label, input }) => (
        <LabelledInput id={SIGN_IN_IDS[name]} label={label} {...input} {...(name === 'email' ? { inputMode: 'email' } : {})} />
      )}
      ErrorNotice={ErrorNotice}
      SuccessNotice={SuccessNotice}
      buttonClassName={buttonClasses('primary', 'w-full')}
      linkButtonClassName={buttonClasses('secondary', 'w-full')}
      footer={
        <p className="text-center text-sm">
          <Link to={forgotPath} className={footLinkClass}>Forgot your password?</Link>
        </p>
      }
    />
  )
}

/** Sign in with the one-time link e-mailed while failed attempts keep the account locked. */
export function PortalSignInLinkPage<S>({ client, audience, signedIn, homePath, landingPath }: {
  client: SessionClient
  audience: string
  signedIn: (answer: S) => void
  homePath: string
  // The first page after signing in.
  landingPath: string
}) {
  const navigate = useNavigate()
  const [token] = useState(takeLinkToken)
  return (
    <SignInLinkForm<S>
      client={client}
      token={token}
      signedIn={(answer) => {
        signedIn(answer)
        navigate(landingPath, { replace: true })
      }}
      frame={(form) => <AuthFrame audience={audience} title="Sign in with your link">{form}</AuthFrame>}
      formClassName="space-y-4"
      heading={<p className="text-sm text-slate-600">The link from your e-mail signs you in once, within 15 minutes.</p>}
      spentFooter={
        <>
          <p className="text-sm text-slate-700">Sign in with your password, or ask for a new link there.</p>
          <Link to={homePath} className={buttonClasses('primary', 'w-full')}>Back to sign in</Link>
        </>
      }
      renderField={({ label, input }) => <LabelledInput id="link-code" label={label} {...input} />}
      ErrorNotice={ErrorNotice}
      buttonClassName={buttonClasses('primary', 'w-full')}
    />
  )
}

/** Ask for a link to choose a new password: the answer is the same whether or not the address is known. */
export function ForgotPasswordPage({ client, audience, homePath }: { client: SessionClient; audience: string; homePath: string }) {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState('')
  const [error, setError] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError('')
    try {
      setSent((await client.request<{ message: string }>('POST', '/password/forgot', { email })).message)
    } catch (failure) {
      const refusal = failure as SessionApiError
      setError(refusal.message)
      setFieldError(refusal.fields.email)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame audience={audience} title="Forgot your password?">
      {sent ? <SuccessNotice message={sent} /> : (
        <form onSubmit={submit} className="space-y-4">
          <p className="text-sm text-slate-600">We e-mail you a link to choose a new one. It works for 1 hour.</p>
          <ErrorNotice message={error} />
          <LabelledInput id="forgot-email" label="E-mail" type="email" autoComplete="username" inputMode="email" required
            value={email} error={fieldError} onChange={(e) => setEmail(e.currentTarget.value)} />
          <button type="submit" className={buttonClasses('primary', 'w-full')} disabled={busy}>
            {busy ? 'Sending…' : 'E-mail me a link'}
          </button>
        </form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link to={homePath} className={footLinkClass}>Back to sign in</Link>
      </p>
    </AuthFrame>
  )
}

/** Choose a password through an invitation (welcome) or a password link (reset); then signed in. */
export function ChoosePasswordPage<S>({ client, audience, welcome, signedIn, forgotPath, landingPath }: {
  client: SessionClient
  audience: string
  welcome: boolean
  signedIn: (answer: S) => void
  forgotPath: string
  // The first page after signing in.
  landingPath: string
}) {
  const navigate = useNavigate()
  const [token] = useState(takeLinkToken)
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [totp, setTotp] = useState('')
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(token ? null : INCOMPLETE)
  // What the server found wrong with the password itself, under its field.
  const [passwordError, setPasswordError] = useState<string | undefined>()
  const [spent, setSpent] = useState(!token)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setPasswordError(undefined)
    if (password !== again) {
      setError('The two passwords are not the same.')
      return
    }
    setBusy(true)
    setError(null)
    try {
      signedIn(await client.request<S>('POST', '/password', { token, password, ...(needsTotp ? { totp } : {}) }))
      navigate(landingPath, { replace: true })
    } catch (failure) {
      const answer = failure as SessionApiError
      if (answer.body?.totpRequired) setNeedsTotp(true)
      if (answer.status === 410) setSpent(true)
      setError(answer.message)
      setPasswordError(answer.fields.password)
    } finally {
      setBusy(false)
    }
  }

  return (
    <AuthFrame audience={audience} title={welcome ? 'Welcome: choose your password' : 'Choose a new password'}>
      {spent ? (
        <div className="space-y-4">
          <ErrorNotice message={error} />
          <p className="text-sm text-slate-700">Ask for a new link: it is e-mailed to you and works for 1 hour.</p>
          <Link to={forgotPath} className={buttonClasses('primary', 'w-full')}>E-mail me a new link</Link>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          {welcome ? <p className="text-sm text-slate-600">Your e-mail address is your sign-in name.</p> : null}
          <ErrorNotice message={error} />
          <LabelledInput id="new-password" label="New password" type="password" autoComplete="new-password" required
            minLength={MIN_PASSWORD_LENGTH} hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} value={password}
            error={passwordError} onChange={(e) => setPassword(e.currentTarget.value)} />
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
