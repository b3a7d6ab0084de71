// A buyer's own rules on its console form: the least quality score of a lead it is pinged for, and
// its duplicate rule (the window in days, the same person by phone, e-mail or either, within the
// same service or all). Empty means any score, and the site's duplicate rule (docs/quality.md).
import type { Buyer } from '../types'
import { Field, inputClass } from '../ui'

export type DuplicateMatch = Buyer['duplicateMatch']
export type DuplicateScope = Buyer['duplicateScope']

export interface RulesDraft {
  minQuality: string
  duplicateDays: string
  duplicateMatch: DuplicateMatch
  duplicateScope: DuplicateScope
}

type RuleValues = Pick<Buyer, 'minQuality' | 'duplicateDays' | 'duplicateMatch' | 'duplicateScope'>

const MATCHES: [DuplicateMatch, string][] = [['phone', 'Phone'], ['email', 'E-mail'], ['either', 'Phone or e-mail']]
const SCOPES: [DuplicateScope, string][] = [['service', 'The same service'], ['all', 'Any service']]

/** A new buyer takes any score and keeps the site's rule, as the server makes it. */
export function rulesDraftOf(buyer: Partial<RuleValues> | null): RulesDraft {
  return {
    minQuality: buyer?.minQuality?.toString() ?? '',
    duplicateDays: buyer?.duplicateDays?.toString() ?? '',
    duplicateMatch: buyer?.duplicateMatch ?? 'phone',
    duplicateScope: buyer?.duplicateScope ?? 'service',
  }
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))

/** The fields the server takes: empty as null (any score; the site's duplicate rule). */
export function rulesBody(draft: RulesDraft) {
  return {
    minQuality: numberOrNull(draft.minQuality),
    duplicateDays: numberOrNull(draft.duplicateDays),
    duplicateMatch: draft.duplicateMatch,
    duplicateScope: draft.duplicateScope,
  }
}

export function RuleFields({ draft, onChange, errors }: {
  draft: RulesDraft
  onChange: (draft: RulesDraft) => void
  errors: Record<string, string>
}) {
  const set = <K extends keyof RulesDraft>(key: K, value: RulesDraft[K]) => onChange({ ...draft, [key]: value })
  // Without a window of its own the site's rule applies, and the match and scope wait unused.
  const siteRule = draft.duplicateDays.trim() === ''
  return (
    <fieldset className="grid gap-3 text-sm sm:col-span-2 sm:grid-cols-2">
      <legend className="mb-1 font-medium text-slate-700">Lead quality and duplicates</legend>
      <Field label="Minimum quality score" error={errors.minQuality}
        hint="0-100: a lead scored under it is not pinged to this buyer. Empty: any score.">
        <input className={inputClass} type="number" min={0} max={100} step={1} inputMode="numeric"
          value={draft.minQuality} onChange={(e) => set('minQuality', e.currentTarget.value)} />
      </Field>
      <Field label="Duplicate window (days)" error={errors.duplicateDays}
        hint="1-365: not pinged for a lead of a person it was pinged for or bought within these days. Empty: the site's rule (same phone and service).">
        <input className={inputClass} type="number" min={1} max={365} step={1} inputMode="numeric"
          value={draft.duplicateDays} onChange={(e) => set('duplicateDays', e.currentTarget.value)} />
      </Field>
      <Field label="Same person by" error={errors.duplicateMatch} hint={siteRule ? 'Used with a window of its own.' : undefined}>
        <select className={inputClass} value={draft.duplicateMatch} disabled={siteRule}
          onChange={(e) => set('duplicateMatch', e.currentTarget.value as DuplicateMatch)}>
          {MATCHES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </Field>
      <Field label="Duplicates within" error={errors.duplicateScope} hint={siteRule ? 'Used with a window of its own.' : undefined}>
        <select className={inputClass} value={draft.duplicateScope} disabled={siteRule}
          onChange={(e) => set('duplicateScope', e.currentTarget.value as DuplicateScope)}>
          {SCOPES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </Field>
    </fieldset>
  )
}
