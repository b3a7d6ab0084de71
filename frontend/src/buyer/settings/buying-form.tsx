import { Lock } from 'lucide-react'
import { useState, type FormEvent, type ReactNode } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, request } from '../api'
import { useCatalogChoices } from '../catalog'
import type { BuyerSettings } from '../types'
import { Card, ErrorNotice, inputClass, SuccessNotice } from '../ui'
import { appliesTo, changes, type Draft, draftOf, type Editable, isLocked, problems } from './settings-draft'
import { ChoiceList } from './choice-list'
import { RuleFields } from './rule-fields'

export const LOCKED = 'Locked by ServiceMatch: ask your account manager.'

/** What the buyer buys and how much: services, area, caps, budget, hours, its bid floor or price, and
 * which leads: its minimum quality score and its own duplicate rule. */
export function BuyingForm({ settings, onSaved }: { settings: BuyerSettings; onSaved: (settings: BuyerSettings) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings))
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { services, states } = useCatalogChoices()
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }))
  const locked = (field: Editable) => isLocked(settings, field)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setDone(null)
    const found = problems(draft)
    setFields(found)
    if (Object.keys(found).length) return
    const body = changes(settings, draft)
    if (!Object.keys(body).length) {
      setDone('Nothing to save: no setting was changed.')
      return
    }
    setBusy(true)
    try {
      const saved = await request<BuyerSettings>('PATCH', '/settings', body)
      setDraft(draftOf(saved))
      onSaved(saved)
      setDone('Saved. The next auctions use these settings.')
    } catch (failure) {
      const refusal = failure as BuyerError
      setFields(refusal.fields)
      setError(refusal.message)
    } finally {
      setBusy(false)
    }
  }

  const field = (name: Editable, label: string, hint: string, control: (id: string, disabled: boolean) => ReactNode) => {
    const id = `setting-${name}`
    const isLocked = locked(name)
    const note = fields[name] ?? (isLocked ? LOCKED : hint)
    return (
      <div className="min-w-0">
        <label htmlFor={id} className="mb-1 flex items-center gap-1 text-sm font-semibold text-slate-800">
          {label} {isLocked ? <Lock size={14} aria-label="locked" /> : null}
        </label>
        {control(id, isLocked)}
        <p id={`${id}-note`} aria-live="polite" className={`mt-1 text-sm ${fields[name] ? 'font-medium text-red-700' : 'text-slate-600'}`}>{note}</p>
      </div>
    )
  }
  type TextField = 'zips' | 'dailyCap' | 'monthlyBudget' | 'hours' | 'bidFloor' | 'price' | 'minQuality' | 'duplicateDays'
  const text = (name: TextField, extra: Record<string, unknown>) =>
    (id: string, disabled: boolean) => (
      <input id={id} className={inputClass} value={draft[name]} disabled={disabled} readOnly={disabled}
        aria-invalid={fields[name] ? true : undefined} aria-describedby={`${id}-note`}
        onChange={(event) => set(name, event.currentTarget.value)} {...extra} />
    )
  const money = { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' }

  return (
    <Card title="What you buy" id="buying-heading">
      <form aria-label="What you buy" noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <ChoiceList name="services" legend="Services" empty="Empty: every service." choices={services} chosen={draft.services}
          locked={locked('services') ? LOCKED : null} error={fields.services} onChange={(chosen) => set('services', chosen)} />
        <ChoiceList name="states" legend="States" empty="Empty: every state." choices={states} chosen={draft.states} columns
          locked={locked('states') ? LOCKED : null} error={fields.states} onChange={(chosen) => set('states', chosen)} />
        {field('zips', 'ZIP codes', '5 digits each, separated by commas; empty: every ZIP code of your states.',
          text('zips', { inputMode: 'numeric', maxLength: 30000 }))}
        <div className="grid gap-4 sm:grid-cols-3">
          {field('dailyCap', 'Daily cap (leads)', 'Empty: no cap.', text('dailyCap', { type: 'number', min: 0, step: 1, inputMode: 'numeric' }))}
          {field('monthlyBudget', 'Monthly budget ($)', 'Empty: no budget.', text('monthlyBudget', money))}
          {appliesTo(settings, 'bidFloor')
            ? field('bidFloor', 'Bid floor ($)', 'A bid of yours below it counts as a pass; empty: none.', text('bidFloor', money))
            : field('price', 'Price per lead ($)', 'What you pay for each lead.', text('price', money))}
        </div>
        {field('hours', 'Buying hours', 'Days, times and time zone, like “Mon-Fri 08:00-18:00 America/New_York”; empty: any time.',
          text('hours', { maxLength: 120, placeholder: 'Mon-Fri 08:00-18:00 America/New_York' }))}
        <RuleFields draft={draft} field={field} text={text} onChange={set} />
        <ErrorNotice message={error} />
        <SuccessNotice message={done} />
        <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
      </form>
    </Card>
  )
}
