import { PageNav, SignedInFrame, SignOutButton } from '../shell/layout'
import { NAV } from './paths'
import { useSession, useSignedIn } from './session'
import { BrandMark } from './ui'

const linkClass = ({ isActive }: { isActive: boolean }) =>
  'flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-semibold md:min-h-11 md:flex-none ' +
  'md:flex-row md:gap-2 md:rounded-md md:px-3 md:text-sm focus-visible:outline-2 focus-visible:outline-brand-600 ' +
  (isActive ? 'text-brand-700 md:bg-white/15 md:text-white' : 'text-slate-600 md:text-blue-100 md:hover:bg-white/10')

/** The signed-in frame: the brand and sign-out on top; the pages in a bar at the bottom of a phone's
 * screen, under the thumb, and in the header on a wider one. */
export function PortalLayout() {
  const { provider, account } = useSignedIn()
  const { signOut } = useSession()
  return (
    <SignedInFrame className="min-h-screen pb-20 md:pb-0" mainClassName="mx-auto max-w-3xl px-4 py-6" header={
      <>
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 py-3">
          <BrandMark inverted />
          <SignOutButton signOut={signOut} iconSize={18}
            className="inline-flex min-h-11 shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-2 text-sm text-blue-100 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white" />
        </div>
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-2 px-4 pb-3">
          <p className="min-w-0 truncate text-sm text-blue-100" title={account.email}>
            <span className="font-semibold text-white">{provider.name}</span> · {account.email}
          </p>
          <PageNav label="Portal" items={NAV} linkClass={linkClass} iconSize={20}
            className="fixed inset-x-0 bottom-0 z-10 flex border-t border-slate-200 bg-white md:static md:border-0 md:bg-transparent md:gap-1" />
        </div>
      </>
    } />
  )
}
