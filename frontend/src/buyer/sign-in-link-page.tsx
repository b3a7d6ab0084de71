import { PortalSignInLinkPage } from '../shell/portal-sign-in'
import { client } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import type { BuyerPortalSession } from './types'
import { AUDIENCE } from './ui'

/** Sign in with the one-time link e-mailed while failed attempts keep the account locked. */
export default function SignInLinkPage() {
  const { signedIn } = useSession()
  return (
    <PortalSignInLinkPage<BuyerPortalSession> client={client} audience={AUDIENCE} signedIn={signedIn} homePath={PATHS.home}
      landingPath={PATHS.leads} />
  )
}
