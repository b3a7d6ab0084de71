import { PortalSignIn } from '../shell/portal-sign-in'
import { client, type PortalSession } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import { AUDIENCE } from './ui'

export function SignIn() {
  const { signedIn, notice } = useSession()
  return <PortalSignIn<PortalSession> client={client} audience={AUDIENCE} signedIn={signedIn} notice={notice} forgotPath={PATHS.forgot} />
}
