import type { Funnel, FunnelStep } from '../types'
import { Card, formatPct } from '../ui'

/** What the visitor read above the step ("Step 2 of 7") and the step's questions beneath. */
function StepName({ step }: { step: FunnelStep }) {
  if (step.kind !== 'step') return <span className="block">{step.label}</span>
  return (
    <span className="block">
      <span className="block font-medium">Step {step.number} of {step.total}</span>
      <span className="block text-xs break-words text-slate-600">{step.title}</span>
    </span>
  )
}

/** One service's funnel: page views, each step, submit, with the drop-off at each step. */
function FunnelCard({ funnel }: { funnel: Funnel }) {
  const top = Math.max(1, ...funnel.steps.map((s) => s.count))
  return (
    <Card title={`${funnel.service} (${funnel.vertical})`}>
      <table className="w-full text-sm">
        <caption className="sr-only">Funnel of {funnel.service}</caption>
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th scope="col" className="py-1 font-medium">Step</th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">Visitors</th>
            <th scope="col" className="py-1 pl-3 text-right font-medium whitespace-nowrap">Drop-off</th>
          </tr>
        </thead>
        <tbody>
          {funnel.steps.map((s) => (
            <tr key={`${s.kind}-${s.step}`} className="border-t border-slate-100">
              <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                <StepName step={s} />
                <span className="mt-1 block h-1.5 rounded bg-brand-700" style={{ width: `${(100 * s.count) / top}%` }} />
              </th>
              <td className="py-1.5 pl-3 text-right tabular-nums">{s.count}</td>
              <td className="py-1.5 pl-3 text-right tabular-nums">{formatPct(s.dropOffPct)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-sm font-semibold">Submitted: <span className="tabular-nums">{funnel.submitted}</span></p>
      {funnel.disqualifications.length > 0 && (
        <div className="mt-3">
          <h3 className="text-xs font-semibold text-slate-500 uppercase">Disqualified by answer</h3>
          <ul className="mt-1 space-y-1 text-sm">
            {funnel.disqualifications.map((d) => (
              <li key={`${d.step}:${d.field}=${d.answer}`} className="flex justify-between gap-2">
                <span className="min-w-0 break-words">
                  {d.step !== null && <>Step {d.step}: </>}{d.label}: <span className="font-medium">{d.answer}</span>
                </span>
                <span className="tabular-nums">{d.count}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  )
}

export function Funnels({ funnels }: { funnels: Funnel[] }) {
  if (funnels.length === 0) return <p className="text-sm text-slate-500">No visits recorded in this range.</p>
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {funnels.map((f) => <FunnelCard key={`${f.vertical}/${f.service}`} funnel={f} />)}
    </div>
  )
}
