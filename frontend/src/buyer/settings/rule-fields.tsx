import type { ReactNode } from 'react'
import { inputClass } from '../ui'
import type { Draft, Editable } from './settings-draft'

type Control = (id: string, disabled: boolean) => ReactNode
type Choice = 'duplicateMatch' | 'duplicateScope'

const MATCHES: [Draft['duplicateMatch'], string][] = [['phone', 'Phone'], ['email', 'E-mail'], ['either', 'Phone or e-mail']]
const SCOPES: [Draft['duplicateScope'], string][] = [['service', 'The same service'], ['all', 'Any service']]

/** Which leads the buyer is pinged for: its least quality score, and its own duplicate rule (the
 * window, the same person by phone, e-mail or either, in the same service or any). Laid out by the
 * settings form's own `field` and `text`, so locks, notes and errors read as every other field's. */
export function RuleFields({ draft, field, text, onChange }: {
  draft: Draft
  field: (name: Editable, label: string, hint: string, control: Control) => ReactNode
  text: (name: 'minQuality' | 'duplicateDays', extra: Record<string, unknown>) => Control
  onChange: <K extends keyof Draft>(key: K, value: Draft[K]) => void
}) {
  // Without a window of its own our rule applies, and the match and scope wait unused.
  const ourRule = draft.duplicateDays.trim() === ''
  const choice = <K extends Choice>(name: K, options: [Draft[K], string][]): Control => (id, disabled) => (
    <select id={id} className={inputClass} value={draft[name]} disabled={disabled || ourRule}
      aria-describedby={`${id}-note`} onChange={(event) => onChange(name, event.currentTarget.value as Draft[K])}>
      {options.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
    </select>
  )
  const whole = { type: 'number', step: 1, inputMode: 'numeric' }
  const unused = 'Used with a duplicate window of your own.'
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-semibold text-slate-800">Which leads</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        {field('minQuality', 'Minimum quality score', '0-100: a lead we scored under it is not sent to you. Empty: any score.',
          text('minQuality', { ...whole, min: 0, max: 100 }))}
        {field('duplicateDays', 'Duplicate window (days)',
          '1-365: you are not pinged for a lead of a person you were pinged for or bought within these days. Empty: our rule (the same phone and service).',
          text('duplicateDays', { ...whole, min: 1, max: 365 }))}
        {field('duplicateMatch', 'Same person by', ourRule ? unused : 'How a lead is known to be the same person’s.',
          choice('duplicateMatch', MATCHES))}
        {field('duplicateScope', 'Duplicates within', ourRule ? unused : 'A request for the same service only, or for any.',
          choice('duplicateScope', SCOPES))}
      </div>
    </fieldset>
  )
}
