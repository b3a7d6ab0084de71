// The signed-in frame of the provider portal and the buyer portal: the brand and sign-out on top;
// the pages in a bar at the bottom of a phone's screen, under the thumb, and in the header on a
// wider one.
import { PageNav, SignedInFrame, SignOutButton, type NavItem } from './layout'
import { BrandMark } from './portal-ui'

export function PortalLayout({ audience, name, email, nav, signOut, width, linkClass }: {
  audience: string
  // Who is signed in: the company's name and the person's e-mail.
  name: string
  email: string
  nav: NavItem[]
  signOut: () => Promise<void>
  // The pages' widest (a Tailwind max-w-* class): a provider's pages are one column, a buyer's have tables.
  width: string
  linkClass: (state: { isActive: boolean }) => string
}) {
  return (
    <SignedInFrame className="min-h-screen pb-20 md:pb-0" mainClassName={`mx-auto ${width} px-4 py-6`} header={
      <>
        <div className={`mx-auto flex ${width} items-center justify-between gap-3 px-4 py-3`}>
          <BrandMark audience={audience} inverted />
          <SignOutButton signOut={signOut} iconSize={18}
            className="inline-flex min-h-11 shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-2 text-sm text-blue-100 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white" />
        </div>
        <div className={`mx-auto flex ${width} flex-wrap items-center justify-between gap-2 px-4 pb-3`}>
          <p className="min-w-0 truncate text-sm text-blue-100" title={email}>
            <span className="font-semibold text-white">{name}</span> · {email}
          </p>
          <PageNav label="Portal" items={nav} linkClass={linkClass} iconSize={20}
            className="fixed inset-x-0 bottom-0 z-10 flex border-t border-slate-200 bg-white md:static md:border-0 md:bg-transparent md:gap-1" />
        </div>
      </>
    } />
  )
}
