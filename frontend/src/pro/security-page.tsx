import { TwoStepCard } from '../shell/two-step-card'
import { client } from './api'
import { useSession, useSignedIn } from './session'

/** The optional second factor: a code from an authenticator app at every sign-in. */
export default function SecurityPage() {
  const { account } = useSignedIn()
  const { setTotp } = useSession()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Security</h1>
      <TwoStepCard client={client} enabled={account.totpEnabled} setEnabled={setTotp} device="phone" />
    </div>
  )
}
