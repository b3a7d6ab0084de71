// The signed-in frame's parts: the header over the pages, the pages' navigation, signing out.
// Each app lays them out in its own header.
import { LogOut, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { NavLink, Outlet } from 'react-router'

export interface NavItem {
  to: string
  label: string
  icon: LucideIcon
  // True where the link is current only on its own path, not on the paths below it.
  end: boolean
}

/** The header, then the page the route opens. */
export function SignedInFrame({ className, header, mainClassName }: { className: string; header: ReactNode; mainClassName: string }) {
  return (
    <div className={className}>
      <header className="bg-brand-900 text-white">{header}</header>
      <main className={mainClassName}>
        <Outlet />
      </main>
    </div>
  )
}

export function PageNav({ label, className, items, linkClass, iconSize }: {
  label: string
  className: string
  items: NavItem[]
  linkClass: (state: { isActive: boolean }) => string
  iconSize: number
}) {
  return (
    <nav aria-label={label} className={className}>
      {items.map(({ to, label: text, icon: Icon, end }) => (
        <NavLink key={to} to={to} end={end} className={linkClass}>
          <Icon size={iconSize} aria-hidden="true" /> {text}
        </NavLink>
      ))}
    </nav>
  )
}

export function SignOutButton({ signOut, className, iconSize }: { signOut: () => Promise<void>; className: string; iconSize: number }) {
  return (
    <button type="button" onClick={() => void signOut()} className={className}>
      <LogOut size={iconSize} aria-hidden="true" /> Sign out
    </button>
  )
}
