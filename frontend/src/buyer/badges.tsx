import { LEAD_STATUSES, RETURN_STATUSES } from './labels'
import type { LeadStatus, ReturnStatus } from './types'

function Badge({ label, className }: { label: string; className: string }) {
  return <span className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${className}`}>{label}</span>
}

export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  const found = LEAD_STATUSES.find((entry) => entry.value === status)
  return <Badge label={found?.label ?? status} className={found?.className ?? 'bg-slate-100 text-slate-700'} />
}

export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  const found = RETURN_STATUSES.find((entry) => entry.value === status)
  return <Badge label={found?.label ?? status} className={found?.className ?? 'bg-slate-100 text-slate-700'} />
}
