// The optional second factor of a portal account (the provider's, the buyer's): a code from an
// authenticator app at every sign-in. Both servers answer the same calls under their own prefix.
import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { Card, ErrorNotice, SuccessNotice } from './portal-ui'
import type { SessionApiError, SessionClient } from './session-client'

interface TotpSetup {
  // The seed, base32, for typing into an authenticator app; the uri is the same seed as a link.
  secret: string
  uri: string
}

export function TwoStepCard({ client, enabled, setEnabled, device }: {
  client: SessionClient
  enabled: boolean
  // Records the change in the signed-in session, so the page says it without asking the server again.
  setEnabled: (on: boolean) => void
  // What the portal calls the screen it is used on: "phone" (the provider portal), "device".
  device: string
}) {
  const [setup, setSetup] = useState<TotpSetup | null>(null)
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const run = async (call: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    setDone(null)
    try {
      await call()
    } catch (failure) {
      setError((failure as SessionApiError).message)
    } finally {
      setBusy(false)
    }
  }
  const start = () => run(async () => setSetup(await client.request<TotpSetup>('POST', '/account/totp')))
  const confirm = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await client.request('POST', '/account/totp/confirm', { code })
      setEnabled(true)
      setSetup(null)
      setCode('')
      setDone('Two-step sign-in is on: you will be asked for a code from your app each time you sign in.')
    })
  }
  const turnOff = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await client.request('POST', '/account/totp/disable', { password })
      setEnabled(false)
      setPassword('')
      setDone('Two-step sign-in is off.')
    })
  }

  return (
    <Card title="Two-step sign-in" id="totp-heading">
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          {enabled
            ? 'On: signing in needs your password and a 6-digit code from your authenticator app.'
            : 'Off: signing in needs your password only. Turn it on to ask for a code from an authenticator app too.'}
        </p>
        <ErrorNotice message={error} />
        <SuccessNotice message={done} />
        {enabled ? (
          <form onSubmit={turnOff} className="space-y-3">
            <LabelledInput id="totp-off-password" label="Your password" type="password" autoComplete="current-password"
              required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <button type="submit" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy}>Turn off</button>
          </form>
        ) : setup ? (
          <form onSubmit={confirm} className="space-y-3">
            <p className="text-sm text-slate-700">Add this key to your authenticator app, then type the code it shows.</p>
            <p className="break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-base tracking-wider">
              {setup.secret.match(/.{1,4}/g)?.join(' ')}
            </p>
            <a href={setup.uri} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline">
              {`Open in an authenticator app on this ${device}`}
            </a>
            <LabelledInput id="totp-code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code"
              maxLength={6} required value={code} onChange={(e) => setCode(e.currentTarget.value)} />
            <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy}>Turn on</button>
          </form>
        ) : (
          <button type="button" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy} onClick={() => void start()}>
            Set up two-step sign-in
          </button>
        )}
      </div>
    </Card>
  )
}
