import { PortalSignIn } from '../shell/portal-sign-in'
import { client } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import type { BuyerPortalSession } from './types'
import { AUDIENCE } from './ui'

export function SignIn() {
  const { signedIn, notice } = useSession()
  return (
    <PortalSignIn<BuyerPortalSession> client={client} audience={AUDIENCE} signedIn={signedIn} notice={notice}
      intro="The portal for companies that buy leads from ServiceMatch." forgotPath={PATHS.forgot} />
  )
}
