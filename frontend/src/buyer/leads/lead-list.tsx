// The leads bought: cards on a phone, a table on a desk; a lead bought while the page was open is marked new.
import { Link } from 'react-router'
import { LeadStatusBadge } from '../badges'
import { formatDateTime, formatDollars } from '../format'
import { feedbackLabel } from '../labels'
import { leadPagePath } from '../paths'
import type { BuyerLeadRow } from '../types'

function NewMarker() {
  return <span className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-bold text-white">New</span>
}

const place = (lead: BuyerLeadRow) => [lead.state, lead.zip].filter(Boolean).join(' ') || '—'

export function LeadCards({ leads, fresh }: { leads: BuyerLeadRow[]; fresh: Set<string> }) {
  return (
    <ul className="space-y-3 md:hidden" aria-label="Leads bought">
      {leads.map((lead) => (
        <li key={lead.id}>
          <Link to={leadPagePath(lead.id)}
            className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-base font-bold text-brand-900">{lead.reference}</span>
                  {fresh.has(lead.id) ? <NewMarker /> : null}
                </p>
                <p className="mt-1 text-base text-slate-900">{lead.serviceName}</p>
                <p className="text-sm text-slate-700">{place(lead)} · {formatDateTime(lead.boughtAt)}</p>
              </div>
              <div className="shrink-0 space-y-1 text-right">
                <p className="text-lg font-bold tabular-nums text-slate-900">{formatDollars(lead.price)}</p>
                <LeadStatusBadge status={lead.status} />
              </div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  )
}

export function LeadTable({ leads, fresh }: { leads: BuyerLeadRow[]; fresh: Set<string> }) {
  const cell = 'px-3 py-2 align-top'
  return (
    <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Leads bought, newest first</caption>
        <thead className="bg-slate-50 text-xs text-slate-600">
          <tr>
            {['Reference', 'Bought', 'Service', 'State', 'Price', 'Status', 'Feedback'].map((header) => (
              <th key={header} scope="col" className={`px-3 py-2 font-semibold ${header === 'Price' ? 'text-right' : ''}`}>{header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id} className={`border-t border-slate-100 ${fresh.has(lead.id) ? 'bg-orange-50' : ''}`}>
              <td className={cell}>
                <span className="flex items-center gap-2">
                  <Link to={leadPagePath(lead.id)} className="font-mono font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2">
                    {lead.reference}
                  </Link>
                  {fresh.has(lead.id) ? <NewMarker /> : null}
                </span>
              </td>
              <td className={`${cell} whitespace-nowrap`}>{formatDateTime(lead.boughtAt)}</td>
              <td className={cell}>
                {lead.serviceName}
                {lead.exclusive ? <span className="block text-xs text-slate-600">exclusive</span> : null}
              </td>
              <td className={`${cell} whitespace-nowrap`}>{place(lead)}</td>
              <td className={`${cell} text-right font-semibold tabular-nums`}>{formatDollars(lead.price)}</td>
              <td className={cell}><LeadStatusBadge status={lead.status} /></td>
              <td className={`${cell} text-slate-700`}>{lead.feedback ? feedbackLabel(lead.feedback) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
