import type { AreaDraft, PartnerState } from '../lib/partner-options'
import { LabelledInput } from './labelled-input'

/** Where a provider works: ZIP codes with a radius around them, or whole states. */
export function AreaFields({ area, states, onChange, errors }: {
  area: AreaDraft
  states: PartnerState[]
  onChange: (area: AreaDraft) => void
  errors: Record<string, string>
}) {
  const set = (change: Partial<AreaDraft>) => onChange({ ...area, ...change })
  const toggle = (code: string, on: boolean) =>
    set({ states: on ? [...area.states, code] : area.states.filter((s) => s !== code) })
  const choice = (kind: AreaDraft['kind'], label: string) => (
    <label className="flex min-h-11 flex-1 cursor-pointer items-center gap-3 rounded-lg border border-slate-300 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
      <input type="radio" name="area-kind" className="size-5 accent-brand-700" checked={area.kind === kind}
        onChange={() => set({ kind })} />
      <span className="text-base text-slate-900">{label}</span>
    </label>
  )
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 text-sm font-semibold text-slate-800">Where you work</legend>
      <div className="flex flex-col gap-2 sm:flex-row">
        {choice('zips', 'ZIP codes and a radius')}
        {choice('states', 'Whole states')}
      </div>
      {area.kind === 'zips' ? (
        <div className="grid gap-3 sm:grid-cols-[2fr_1fr]">
          <LabelledInput id="area-zips" label="ZIP codes" hint="5 digits each, separated by commas" inputMode="numeric"
            value={area.zips} error={errors.zips} onChange={(event) => set({ zips: event.currentTarget.value })} />
          <LabelledInput id="area-radius" label="Radius (miles)" hint="Around each ZIP code; empty: the ZIP codes only"
            type="number" min={1} max={500} inputMode="numeric" value={area.radius} error={errors.radiusMiles}
            onChange={(event) => set({ radius: event.currentTarget.value })} />
        </div>
      ) : (
        <fieldset aria-describedby="area-states-error">
          <legend className="mb-1 text-sm font-semibold text-slate-800">States</legend>
          <ul className="grid max-h-64 grid-cols-2 gap-x-3 overflow-y-auto rounded-lg border border-slate-200 p-2 sm:grid-cols-3">
            {states.map((state) => (
              <li key={state.value}>
                <label className="flex min-h-11 cursor-pointer items-center gap-2 px-1">
                  <input type="checkbox" className="size-5 shrink-0 accent-brand-700" checked={area.states.includes(state.value)}
                    onChange={(event) => toggle(state.value, event.currentTarget.checked)} />
                  <span className="text-sm text-slate-900">{state.label}</span>
                </label>
              </li>
            ))}
          </ul>
          <p id="area-states-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{errors.states ?? ''}</p>
        </fieldset>
      )}
    </fieldset>
  )
}
