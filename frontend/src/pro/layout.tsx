import { PortalLayout as SharedPortalLayout } from '../shell/portal-layout'
import { NAV } from './paths'
import { useSession, useSignedIn } from './session'
import { StandingBanner } from './standing-banner'
import { AUDIENCE } from './ui'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-semibold md:min-h-11 md:flex-none ' +
  'md:flex-row md:gap-2 md:rounded-md md:px-3 md:text-sm focus-visible:outline-2 focus-visible:outline-brand-600 ' +
  (isActive ? 'text-brand-700 md:bg-white/15 md:text-white' : 'text-slate-600 md:text-blue-100 md:hover:bg-white/10')

/** The signed-in frame, one column wide: a provider works the portal from a phone. */
export function PortalLayout() {
  const { provider, account } = useSignedIn()
  const { signOut } = useSession()
  return (
    <>
      <StandingBanner />
      <SharedPortalLayout audience={AUDIENCE} name={provider.name} email={account.email} nav={NAV} signOut={signOut}
        width="max-w-3xl" linkClass={linkClass} />
    </>
  )
}
