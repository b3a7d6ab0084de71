import type { CreditRequestView, CreditStatus } from './paying-types'
import { formatDate, formatMoney } from './format'

const BADGE: Record<CreditStatus, { label: string; className: string }> = {
  pending: { label: 'Waiting for review', className: 'bg-amber-100 text-amber-900' },
  approved: { label: 'Approved', className: 'bg-green-100 text-green-800' },
  denied: { label: 'Denied', className: 'bg-slate-200 text-slate-800' },
}

export function CreditBadge({ status }: { status: CreditStatus }) {
  const { label, className } = BADGE[status]
  return <span className={`inline-block whitespace-nowrap rounded-full px-3 py-1 text-sm font-semibold ${className}`}>{label}</span>
}

/** What happened to a credit request, in words: asked when and why, decided how. */
export function CreditSummary({ credit }: { credit: CreditRequestView }) {
  return (
    <div className="space-y-1 text-sm text-slate-700">
      <p className="flex flex-wrap items-center gap-2">
        <CreditBadge status={credit.status} />
        <span>{credit.reasonLabel} · {formatMoney(Math.abs(credit.amountCents))}</span>
      </p>
      <p>Asked {formatDate(credit.createdAt)}{credit.detail ? `: “${credit.detail}”` : ''}</p>
      {credit.status === 'pending' ? <p>Our team reviews credit requests within 3 to 5 business days.</p> : null}
      {credit.status === 'approved' ? <p>The credit is on your statement{credit.decidedAt ? ` since ${formatDate(credit.decidedAt)}` : ''}.</p> : null}
      {credit.decisionNote ? <p>Our note: {credit.decisionNote}</p> : null}
    </div>
  )
}
