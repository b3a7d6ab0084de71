// An account's standing as both portals show it (GET /api/buyer/account/standing,
// GET /api/pro/providers/{id}/standing): a banner on every page while it is not receiving leads,
// saying why and what to do, and its terms and money beside its other facts.
import { TriangleAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

export interface AccountStanding {
  terms: 'prepaid' | 'credit'
  // "Prepaid", "Credit, limit $5,000.00, invoices due in 15 days".
  termsText: string
  creditLimit: number | null
  netDays: number
  // Dollars: payments, credits and returns add; leads take.
  balance: number
  // What may still be spent; null: credit with no limit.
  available: number | null
  receivingLeads: boolean
  hold: 'funds' | 'overdue' | null
  heldSince: string | null
  why: string | null
  whatToDo: string | null
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

function formatBalance(amount: number): string {
  return dollars.format(amount)
}

/** Where each hold's banner sends the reader, as a path of the portal's own router. */
export type HoldLinks = Record<'funds' | 'overdue', { to: string; label: string }>

/** Nothing while leads come; else an amber bar across the top of every page: why, what to do, where. */
export function StandingBanner({ standing, links, width }: { standing: AccountStanding | null; links: HoldLinks; width: string }) {
  if (!standing || standing.receivingLeads) return null
  const link = standing.hold ? links[standing.hold] : null
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 text-amber-950">
      <div className={`mx-auto flex ${width} flex-wrap items-start gap-x-3 gap-y-1 px-4 py-3 text-sm`}>
        <TriangleAlert size={20} aria-hidden="true" className="mt-0.5 shrink-0 text-amber-700" />
        <p className="min-w-0 flex-1">
          <strong>You are not receiving leads</strong>{standing.why ? `: ${standing.why}.` : '.'} {standing.whatToDo}
        </p>
        {link ? (
          <Link to={link.to} className="inline-flex min-h-11 items-center font-semibold text-amber-900 underline underline-offset-2 sm:min-h-0">
            {link.label}
          </Link>
        ) : null}
      </div>
    </div>
  )
}

/** The terms and money as label and value pairs, for a portal's facts list. */
export function standingRows(standing: AccountStanding): [string, ReactNode][] {
  return [
    ['How you pay', standing.termsText],
    ['Balance', <span key="balance" className="tabular-nums">{formatBalance(standing.balance)}</span>],
    ['Available to spend', standing.available === null
      ? 'No limit'
      : <span key="available" className="tabular-nums">{formatBalance(standing.available)}</span>],
    ['Receiving leads', standing.receivingLeads ? 'Yes' : 'No: see the notice at the top of the page'],
  ]
}
