import { Activity, FileSpreadsheet, FileText, Gauge, Gavel, Inbox, LayoutDashboard, ReceiptText, Send, ShieldBan, ShieldQuestionMark, Star, TrendingUp, Undo2, Users, Wallet } from 'lucide-react'
import { PageNav, SignedInFrame, SignOutButton, type NavItem } from '../shell/layout'
import { PATHS } from './paths'
import { useOperator, useSession } from './session'

const NAV: NavItem[] = [
  { to: PATHS.dashboard, label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: PATHS.leads, label: 'Leads', icon: FileText, end: false },
  { to: PATHS.held, label: 'Held', icon: ShieldQuestionMark, end: false },
  { to: PATHS.quality, label: 'Quality', icon: Gauge, end: false },
  { to: PATHS.suppression, label: 'Suppression', icon: ShieldBan, end: false },
  { to: PATHS.deliveries, label: 'Deliveries', icon: Send, end: false },
  { to: PATHS.providers, label: 'Providers', icon: Users, end: false },
  { to: PATHS.applications, label: 'Applications', icon: Inbox, end: false },
  { to: PATHS.buyers, label: 'Buyers', icon: Gavel, end: false },
  { to: PATHS.credits, label: 'Credits', icon: ReceiptText, end: false },
  { to: PATHS.returns, label: 'Returns', icon: Undo2, end: false },
  { to: PATHS.invoices, label: 'Invoices', icon: FileSpreadsheet, end: false },
  { to: PATHS.conversion, label: 'Conversion', icon: TrendingUp, end: false },
  { to: PATHS.reviews, label: 'Reviews', icon: Star, end: false },
  { to: PATHS.money, label: 'Money', icon: Wallet, end: false },
  { to: PATHS.audit, label: 'Audit log', icon: Activity, end: false },
]

const linkClass = ({ isActive }: { isActive: boolean }) =>
  'inline-flex min-h-11 shrink-0 items-center gap-2 rounded-md px-3 text-sm font-medium ' +
  'focus-visible:outline-2 focus-visible:outline-white ' +
  (isActive ? 'bg-white/15 text-white' : 'text-blue-100 hover:bg-white/10 hover:text-white')

export function ConsoleLayout() {
  const operator = useOperator()
  const { signOut } = useSession()
  return (
    <SignedInFrame className="min-h-screen" mainClassName="mx-auto max-w-7xl px-4 py-6" header={
      <>
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 pt-3">
          <p className="font-bold">ServiceMatch console</p>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <span className="truncate" title={operator.email}>
              {operator.email} <span className="rounded bg-white/15 px-1.5 py-0.5 text-xs">{operator.role}</span>
            </span>
            <SignOutButton signOut={signOut} iconSize={16}
              className="inline-flex min-h-11 items-center gap-1 rounded-md px-2 text-blue-100 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white" />
          </div>
        </div>
        {/* Wraps onto a second row on a phone, so every page stays in sight and one tap away. */}
        <PageNav label="Console" className="mx-auto flex max-w-7xl flex-wrap gap-1 px-4 py-2" items={NAV} linkClass={linkClass} iconSize={16} />
      </>
    } />
  )
}
