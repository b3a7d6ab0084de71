// The page an e-mailed sign-in link opens: its token (read from the address's fragment by the app)
// goes back to the server only when the visitor presses the button, so a mail scanner that opens
// the link spends nothing; then an authentication code, once the server says the account needs one.
import { useState, type ComponentType, type FormEvent, type ReactNode } from 'react'
import type { SignInField } from './sign-in'
import type { SessionApiError, SessionClient } from './session-client'

export const INCOMPLETE = 'This link is not complete. Open it from the e-mail again.'

export interface SignInLinkFormProps<S> {
  client: SessionClient
  token: string
  signedIn: (answer: S) => void
  frame: (form: ReactNode) => ReactNode
  formClassName: string
  heading?: ReactNode
  // Shown once the link is of no more use (spent, expired or incomplete): the way back to signing in.
  spentFooter: ReactNode
  renderField: (field: SignInField) => ReactNode
  ErrorNotice: ComponentType<{ message: string | null | undefined }>
  buttonClassName: string
}

export function SignInLinkForm<S>({
  client, token, signedIn, frame, formClassName, heading, spentFooter, renderField, ErrorNotice, buttonClassName,
}: SignInLinkFormProps<S>) {
  const [totp, setTotp] = useState('')
  const [needsTotp, setNeedsTotp] = useState(false)
  const [error, setError] = useState<string | null>(token ? null : INCOMPLETE)
  const [spent, setSpent] = useState(!token)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      signedIn(await client.request<S>('POST', '/session/link/use', needsTotp ? { token, totp } : { token }))
    } catch (failure) {
      const answer = failure as SessionApiError
      if (answer.body?.totpRequired) setNeedsTotp(true)
      if (answer.status === 410) setSpent(true)
      setError(answer.message)
    } finally {
      setBusy(false)
    }
  }

  return frame(
    spent ? (
      <div className={formClassName}>
        {heading}
        <ErrorNotice message={error} />
        {spentFooter}
      </div>
    ) : (
      <form onSubmit={submit} className={formClassName}>
        {heading}
        <ErrorNotice message={error} />
        {needsTotp && renderField({
          name: 'totp',
          label: 'Authentication code',
          input: {
            inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9]{6}', maxLength: 6, required: true,
            autoFocus: true, value: totp, onChange: (e) => setTotp(e.currentTarget.value),
          },
        })}
        <button type="submit" className={buttonClassName} disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    ),
  )
}
