import type { AuctionStep } from '../types'
import { formatDollarAmount } from '../ui'

const LABELS: Record<string, string> = {
  ping: 'Ping', bid: 'Bid', pass: 'Pass', outcome: 'Outcome', post: 'Post', accepted: 'Accepted',
  refused: 'Refused', resend: 'Resent', closed: 'Closed',
}

const COLOURS: Record<string, string> = {
  bid: 'bg-blue-100 text-blue-900',
  pass: 'bg-slate-100 text-slate-700',
  outcome: 'bg-brand-100 text-brand-900',
  accepted: 'bg-green-100 text-green-800',
  refused: 'bg-red-100 text-red-800',
  resend: 'bg-amber-100 text-amber-900',
}

function what(step: AuctionStep): string {
  const amount = step.amount !== null ? formatDollarAmount(step.amount) : null
  const sale = step.exclusive === null ? null : step.exclusive ? 'exclusive' : 'shared'
  switch (step.kind) {
    case 'ping': return sale ? `asked to bid (${sale})` : 'asked to bid'
    case 'bid': return [amount, sale, step.detail].filter(Boolean).join(' · ')
    case 'outcome': return [step.detail, amount && `${amount} in all`].filter(Boolean).join(' · ')
    case 'post': return [amount, 'the full lead sent'].filter(Boolean).join(' · ')
    case 'accepted': return [amount && `sold for ${amount}`, step.detail].filter(Boolean).join(' · ')
    case 'resend': return ['sent again', step.detail].filter(Boolean).join(' · ')
    case 'closed': return 'nothing left to post'
    default: return step.detail ?? ''
  }
}

/** The lead's auction in order: each step at its time since the lead was committed, on a shared scale. */
export function AuctionWaterfall({ steps }: { steps: AuctionStep[] }) {
  if (steps.length === 0) return <p className="text-sm text-slate-500">No auction for this lead: no buyer was asked.</p>
  const last = Math.max(1, ...steps.map((s) => s.atMs))
  return (
    <ol className="space-y-2" aria-label="Auction steps">
      {steps.map((step, i) => (
        <li key={`${step.kind}-${step.buyer}-${i}`} className="grid grid-cols-[4.5rem_1fr] gap-x-3 text-sm">
          <span className="pt-0.5 text-right font-mono text-xs text-slate-500 tabular-nums">{step.atMs} ms</span>
          <div className="min-w-0">
            <p className="min-w-0 break-words">
              <span className={`mr-1 inline-block rounded px-1.5 py-0.5 text-xs font-semibold ${COLOURS[step.kind] ?? 'bg-slate-100 text-slate-700'}`}>
                {LABELS[step.kind] ?? step.kind}
              </span>
              {step.buyer && <strong className="mr-1">{step.buyer}</strong>}
              <span className="text-slate-700">{what(step)}</span>
            </p>
            {/* Where the step falls between the lead's commit and the auction's last step. */}
            <div className="mt-1 h-1 rounded bg-slate-100" aria-hidden="true">
              <div className="h-1 rounded bg-brand-600" style={{ width: `${Math.max(2, (step.atMs / last) * 100)}%` }} />
            </div>
          </div>
        </li>
      ))}
    </ol>
  )
}
