import { Lock } from 'lucide-react'

/** Checkboxes for a list setting (services, states), in a box that scrolls; a chosen value the
 * catalogue no longer lists stays shown, so saving never drops it unseen. */
export function ChoiceList({ name, legend, empty, choices, chosen, locked, error, columns = false, onChange }: {
  name: string
  legend: string
  empty: string
  choices: { value: string; label: string }[]
  chosen: string[]
  // Why the list cannot be changed, when the operator locked it.
  locked: string | null
  error?: string
  columns?: boolean
  onChange: (chosen: string[]) => void
}) {
  const known = new Set(choices.map((choice) => choice.value))
  const all = [...chosen.filter((value) => !known.has(value)).map((value) => ({ value, label: value })), ...choices]
  const toggle = (value: string, on: boolean) => onChange(on ? [...chosen, value] : chosen.filter((c) => c !== value))
  const noteId = `${name}-note`
  const labels = chosen.map((value) => all.find((choice) => choice.value === value)?.label ?? value)
  return (
    <fieldset aria-describedby={noteId} disabled={locked !== null}>
      <legend className="mb-1 flex items-center gap-1 text-sm font-semibold text-slate-800">
        {legend} {locked ? <Lock size={14} aria-label="locked" /> : null}
        <span className="font-normal text-slate-600">({chosen.length ? `${chosen.length} chosen` : 'all'})</span>
      </legend>
      <ul className={`grid max-h-56 gap-x-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-2 ${columns ? 'grid-cols-2 sm:grid-cols-3' : 'sm:grid-cols-2'}`}>
        {all.map((choice) => (
          <li key={choice.value}>
            <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-1 hover:bg-slate-50">
              <input type="checkbox" className="size-5 shrink-0 accent-brand-700" checked={chosen.includes(choice.value)}
                onChange={(event) => toggle(choice.value, event.currentTarget.checked)} />
              <span className="min-w-0 text-sm text-slate-900">{choice.label}</span>
            </label>
          </li>
        ))}
      </ul>
      <p id={noteId} className="mt-1 text-sm text-slate-600">{locked ?? (labels.length ? `Chosen: ${labels.join(', ')}.` : empty)}</p>
      <p aria-live="polite" className="text-sm font-medium text-red-700 empty:hidden">{error ?? ''}</p>
    </fieldset>
  )
}
