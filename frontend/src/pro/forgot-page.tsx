import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import type { components } from '../lib/api-schema'
import { postJson } from '../lib/post-json'
import { PATHS } from './paths'
import { AuthFrame, ErrorNotice, SuccessNotice } from './ui'

type Sent = components['schemas']['PartnerMessage']

/** Ask for a link to choose a new password: the answer is the same whether or not the address is known. */
export default function ForgotPage() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState('')
  const [error, setError] = useState('')
  const [fieldError, setFieldError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError('')
    const answer = await postJson<Sent>('/api/pro/password/forgot', { email })
    setBusy(false)
    if (answer.ok) setSent(answer.data.message)
    else {
      setError(answer.failure.error)
      setFieldError(answer.failure.fields.email)
    }
  }

  return (
    <AuthFrame title="Forgot your password?">
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
        <Link to={PATHS.home} className="font-semibold text-brand-700 underline">Back to sign in</Link>
      </p>
    </AuthFrame>
  )
}
