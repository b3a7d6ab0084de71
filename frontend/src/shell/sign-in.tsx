// The sign-in form of a signed-in app: e-mail and password, then an authentication code once the
// server says the account needs one. Each app gives its frame, its inputs' look and what follows.
// While failed attempts (a stranger's, often) keep the account locked, the form offers to e-mail
// a one-time sign-in link instead (the page it opens: sign-in-link.tsx).
import { useState, type ComponentType, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react'
import type { SessionApiError, SessionClient } from './session-client'

export interface SignInField {
  name: 'email' | 'password' | 'totp'
  label: string
  // Everything the input needs to work: its type, autocomplete, rules, value and change handler.
  input: InputHTMLAttributes<HTMLInputElement>
}

export interface SignInFormProps<S> {
  client: SessionClient
  signedIn: (answer: S) => void
  // What the form shows first: why the visitor is here (their session ended), or nothing.
  notice: string | null
  // Shown the first time the code is asked for, in place of the server's words.
  totpPrompt?: string
  frame: (form: ReactNode) => ReactNode
  formClassName: string
  heading?: ReactNode
  footer?: ReactNode
  renderField: (field: SignInField) => ReactNode
  ErrorNotice: ComponentType<{ message: string | null | undefined }>
  SuccessNotice: ComponentType<{ message: string | null | undefined }>
  buttonClassName: string
  // The button that asks for a sign-in link, shown while sign-in is throttled.
  linkButtonClassName: string
}

interface LinkSent {
  message: string
}

export function SignInForm<S>({
  client, signedIn, notice, totpPrompt, frame, formClassName, heading, footer, renderField, ErrorNotice, SuccessNotice,
  buttonClassName, linkButtonClassName,
}: SignInFormProps<S>) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [totp, setTotp] = useState('')
  // The code field appears once the server says this account needs one.
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(notice)
  const [busy, setBusy] = useState(false)
  // Throttled (429): the account or this address failed too often lately.
  const [locked, setLocked] = useState(false)
  const [linkSent, setLinkSent] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setLinkSent(null)
    try {
      const body = needsTotp ? { email, password, totp } : { email, password }
      signedIn(await client.request<S>('POST', '/session', body))
    } catch (failure) {
      const answer = failure as SessionApiError
      const first = answer.body?.totpRequired && !needsTotp
      if (answer.body?.totpRequired) setNeedsTotp(true)
      setLocked(answer.status === 429)
      setError(first && totpPrompt ? totpPrompt : answer.message)
    } finally {
      setBusy(false)
    }
  }

  async function askForLink() {
    setBusy(true)
    try {
      const answer = await client.request<LinkSent>('POST', '/session/link', { email })
      setError(null)
      setLinkSent(answer.message)
    } catch (failure) {
      setError((failure as SessionApiError).message)
    } finally {
      setBusy(false)
    }
  }

  return frame(
    <form onSubmit={submit} className={formClassName}>
      {heading}
      <ErrorNotice message={error} />
      {renderField({
        name: 'email',
        label: 'E-mail',
        input: { type: 'email', autoComplete: 'username', required: true, value: email, onChange: (e) => setEmail(e.currentTarget.value) },
      })}
      {renderField({
        name: 'password',
        label: 'Password',
        input: {
          type: 'password', autoComplete: 'current-password', required: true, value: password,
          onChange: (e) => setPassword(e.currentTarget.value),
        },
      })}
      {needsTotp && renderField({
        name: 'totp',
        label: 'Authentication code',
        input: {
          inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9]{6}', maxLength: 6, required: true, autoFocus: true,
          value: totp, onChange: (e) => setTotp(e.currentTarget.value),
        },
      })}
      <button type="submit" className={buttonClassName} disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      {linkSent ? <SuccessNotice message={linkSent} /> : locked && (
        <button type="button" className={linkButtonClassName} disabled={busy || !email} onClick={askForLink}>
          E-mail me a sign-in link
        </button>
      )}
      {footer}
    </form>,
  )
}
