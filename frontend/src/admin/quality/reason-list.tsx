// A lead's quality reasons and score as the console shows them (labels: reasons.ts).
import { reasonLabel } from './reasons'

/** A lead's reasons, each in words with its code beside it for searching the docs. */
export function ReasonList({ reasons }: { reasons: string[] }) {
  if (reasons.length === 0) return <span className="text-slate-500">none</span>
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Reasons">
      {reasons.map((code) => (
        <li key={code} className="rounded bg-amber-50 px-2 py-0.5 text-xs text-amber-900 ring-1 ring-amber-200">
          {reasonLabel(code)} <code className="text-[0.7rem] text-amber-700">{code}</code>
        </li>
      ))}
    </ul>
  )
}

/** A score out of 100; "—" before the gate has run. */
export function ScoreBadge({ score }: { score: number | null | undefined }) {
  if (score === null || score === undefined) return <span className="text-slate-500">—</span>
  return <span className="inline-block rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-800 tabular-nums">{score}/100</span>
}
