import { ChoosePasswordPage as SharedChoosePasswordPage } from '../shell/portal-sign-in'
import { client, type PortalSession } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import { AUDIENCE } from './ui'

/** Choose a password through an invitation (welcome) or a password link (reset); then signed in. */
export default function ChoosePasswordPage({ welcome }: { welcome: boolean }) {
  const { signedIn } = useSession()
  return (
    <SharedChoosePasswordPage<PortalSession> client={client} audience={AUDIENCE} welcome={welcome} signedIn={signedIn}
      forgotPath={PATHS.forgot} landingPath={PATHS.offers} />
  )
}
