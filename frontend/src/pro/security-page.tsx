import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { PortalError, request, type PortalAccount, type TotpSetup } from './api'
import { useSession, useSignedIn } from './session'
import { Card, ErrorNotice, SuccessNotice } from './ui'

/** The optional second factor: a code from an authenticator app at every sign-in. */
export default function SecurityPage() {
  const { account } = useSignedIn()
  const { setTotp } = useSession()
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
      setError((failure as PortalError).message)
    } finally {
      setBusy(false)
    }
  }
  const start = () => run(async () => setSetup(await request<TotpSetup>('POST', '/account/totp')))
  const confirm = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await request<PortalAccount>('POST', '/account/totp/confirm', { code })
      setTotp(true)
      setSetup(null)
      setCode('')
      setDone('Two-step sign-in is on: you will be asked for a code from your app each time you sign in.')
    })
  }
  const turnOff = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      await request<PortalAccount>('POST', '/account/totp/disable', { password })
      setTotp(false)
      setPassword('')
      setDone('Two-step sign-in is off.')
    })
  }

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Security</h1>
      <Card title="Two-step sign-in" id="totp-heading">
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            {account.totpEnabled
              ? 'On: signing in needs your password and a 6-digit code from your authenticator app.'
              : 'Off: signing in needs your password only. Turn it on to ask for a code from an authenticator app too.'}
          </p>
          <ErrorNotice message={error} />
          <SuccessNotice message={done} />
          {account.totpEnabled ? (
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
              <a href={setup.uri} className="inline-block text-sm font-semibold text-brand-700 underline">Open in an authenticator app on this phone</a>
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
    </div>
  )
}
