import { useState } from 'react'
import { request } from '../api'
import { EditorForm, useSave } from '../directory-parts'
import { type AccountMoney, TermsFields, termsBody, termsDraftOf } from '../terms-fields'
import type { Buyer } from '../types'
import { Field, formatTime, inputClass } from '../ui'
import { RuleFields, rulesBody, rulesDraftOf } from './rule-fields'

/** The terms the console sets for the buyer portal, beside the generated ConsoleBuyer type until the
 * API types are made again (`make api-types`); the server's answer carries them already. */
interface PortalTerms {
  bidFloor: number | null
  returnWindowDays: number
  maxReturnPercent: number | null
  lockedFields: string[]
  // The buyer's own pause, from its portal: shown here, never set (the operator's switch is `active`).
  paused: boolean
  pausedAt: string | null
}
type EditedBuyer = Buyer & Partial<PortalTerms> & Partial<AccountMoney>

/** The buyer portal's settings an operator may lock, by the server's names. The labels avoid the
 * form's own field labels, so each field is still found by its label alone. */
const LOCKABLE: [name: string, label: string][] = [
  ['services', 'Service list'], ['states', 'State list'], ['zips', 'ZIP list'], ['hours', 'Buying hours'],
  ['dailyCap', 'Daily cap'], ['monthlyBudget', 'Monthly budget'], ['bidFloor', 'Bid floor'],
  ['price', 'Fixed price'], ['pingUrl', 'Ping address'], ['postUrl', 'Post address'],
  ['minQuality', 'Score minimum'], ['duplicateRule', 'Duplicate rule'],
]

interface Draft {
  name: string
  postUrl: string
  pingUrl: string
  price: string
  sale: 'exclusive' | 'shared'
  services: string
  states: string
  zips: string
  dailyCap: string
  monthlyBudget: string
  hours: string
  secret: string
  bidFloor: string
  returnWindowDays: string
  maxReturnPercent: string
  lockedFields: string[]
}
type TextKey = Exclude<keyof Draft, 'lockedFields'>

const list = (text: string) => text.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean)
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))
const textOf = (value: number | null | undefined) => value?.toString() ?? ''

function draftOf(buyer: EditedBuyer | null): Draft {
  return {
    name: buyer?.name ?? '',
    postUrl: buyer?.postUrl ?? '',
    pingUrl: buyer?.pingUrl ?? '',
    price: textOf(buyer?.price),
    sale: buyer?.exclusive ? 'exclusive' : 'shared',
    services: buyer?.services.join(', ') ?? '',
    states: buyer?.states.join(', ') ?? '',
    zips: buyer?.zips.join(', ') ?? '',
    dailyCap: textOf(buyer?.dailyCap),
    monthlyBudget: textOf(buyer?.monthlyBudget),
    hours: buyer?.hours ?? '',
    // Never shown: the server does not send it back. Empty keeps the one stored (or makes one).
    secret: '',
    bidFloor: textOf(buyer?.bidFloor),
    // A new buyer starts with the server's defaults: 7 days, at most 15% of last month's leads.
    returnWindowDays: buyer ? textOf(buyer.returnWindowDays) : '7',
    maxReturnPercent: buyer ? textOf(buyer.maxReturnPercent) : '15',
    lockedFields: buyer?.lockedFields ?? [],
  }
}

/** The body the server takes: lists as arrays, empty values as null (none, or no limit). */
function buyerBody(draft: Draft) {
  return {
    name: draft.name.trim(),
    postUrl: draft.postUrl.trim(),
    pingUrl: draft.pingUrl.trim() || null,
    price: numberOrNull(draft.price),
    exclusive: draft.sale === 'exclusive',
    services: list(draft.services),
    states: list(draft.states).map((s) => s.toUpperCase()),
    zips: list(draft.zips),
    dailyCap: numberOrNull(draft.dailyCap),
    monthlyBudget: numberOrNull(draft.monthlyBudget),
    hours: draft.hours.trim() || null,
    ...(draft.secret ? { secret: draft.secret } : {}),
    bidFloor: numberOrNull(draft.bidFloor),
    returnWindowDays: numberOrNull(draft.returnWindowDays),
    maxReturnPercent: numberOrNull(draft.maxReturnPercent),
    lockedFields: draft.lockedFields,
  }
}

function LockedFields({ locked, onToggle, error }: {
  locked: string[]
  onToggle: (name: string, on: boolean) => void
  error?: string
}) {
  return (
    <fieldset className="text-sm sm:col-span-2" aria-describedby="buyer-locks-note">
      <legend className="mb-1 font-medium text-slate-700">Locked in the buyer portal</legend>
      <p id="buyer-locks-note" className={`mb-1 text-xs ${error ? 'font-medium text-red-700' : 'text-slate-500'}`}>
        {error ?? "The buyer's people see these settings but cannot change them."}
      </p>
      <div className="grid grid-cols-2 gap-x-3 sm:grid-cols-4">
        {LOCKABLE.map(([name, label]) => (
          <label key={name} className="flex min-h-11 items-center gap-2">
            <input type="checkbox" className="size-5" checked={locked.includes(name)}
              onChange={(e) => onToggle(name, e.currentTarget.checked)} />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}

export function BuyerForm({ buyer, onSaved, onCancel }: {
  buyer: EditedBuyer | null
  // A new buyer's answer carries its signing secret, shown once.
  onSaved: (saved: Buyer & { secret?: string }) => void
  onCancel: () => void
}) {
  const [draft, setDraft] = useState(() => draftOf(buyer))
  const [terms, setTerms] = useState(() => termsDraftOf(buyer))
  const [rules, setRules] = useState(() => rulesDraftOf(buyer))
  const set = (key: TextKey, value: string) => setDraft((d) => ({ ...d, [key]: value }))
  const toggleLock = (name: string, on: boolean) => setDraft((d) => {
    const others = d.lockedFields.filter((n) => n !== name)
    return { ...d, lockedFields: on ? [...others, name] : others }
  })

  const input = (key: TextKey, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors[key]}>
      <input className={inputClass} value={draft[key]}
        onChange={(e) => set(key, e.currentTarget.value)} {...extra} />
    </Field>
  )

  const { save, error, fieldErrors, busy } = useSave(async () => {
    const body = { ...buyerBody(draft), ...termsBody(terms), ...rulesBody(rules) }
    onSaved(buyer
      ? await request<Buyer>('PATCH', `/buyers/${encodeURIComponent(buyer.id)}`, body)
      : await request<Buyer & { secret: string }>('POST', '/buyers', body))
  })

  return (
    <EditorForm title={buyer ? `Edit ${buyer.name}` : 'New buyer'} save={save} error={error} busy={busy}
      saveLabel="Save buyer" onCancel={onCancel}>
      {input('name', 'Name', { required: true, maxLength: 200 })}
      <Field label="Sold as" error={fieldErrors.exclusive}>
        <select className={inputClass} value={draft.sale} onChange={(e) => set('sale', e.currentTarget.value)}>
          <option value="shared">Shared (up to three companies)</option>
          <option value="exclusive">Exclusive (this buyer only)</option>
        </select>
      </Field>
      {input('postUrl', 'Post URL', { type: 'url', required: true, placeholder: 'https://…' },
        'The full lead is posted here when the buyer wins it.')}
      {input('pingUrl', 'Ping URL', { type: 'url', placeholder: 'https://…' },
        'Empty: a fixed-price buyer, never pinged.')}
      {input('price', 'Fixed price ($)', { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' },
        'What a buyer without a ping URL pays per lead.')}
      {input('bidFloor', 'Bid floor ($)', { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' },
        "A ping buyer's least bid that counts (a lower one is a pass); empty: any bid.")}
      {input('hours', 'Hours', { maxLength: 120, placeholder: 'Mon-Fri 08:00-18:00 America/New_York' },
        'Empty: always.')}
      <div className="sm:col-span-2">
        {input('services', 'Services', {}, 'Service slugs, comma-separated (hvac, roofing, legal/auto-accident); empty: all.')}
      </div>
      {input('states', 'States', {}, 'Two-letter codes, comma-separated; empty: all.')}
      {input('zips', 'ZIP codes', { inputMode: 'numeric' }, 'Comma-separated; empty: all.')}
      {input('dailyCap', 'Daily cap (leads)', { type: 'number', min: 0, step: 1 }, 'Empty: no cap.')}
      {input('monthlyBudget', 'Monthly budget ($)', { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' },
        'Empty: no budget.')}
      {input('returnWindowDays', 'Return window (days)', { type: 'number', min: 0, max: 365, step: 1 },
        'Days after a sale the buyer may return a lead; 0: no returns.')}
      {input('maxReturnPercent', 'Most returns (%)', { type: 'number', min: 0, max: 100, step: 1 },
        "Of last month's leads; empty: no maximum.")}
      <TermsFields draft={terms} onChange={setTerms} errors={fieldErrors} account={buyer} />
      <RuleFields draft={rules} onChange={setRules} errors={fieldErrors} />
      <LockedFields locked={draft.lockedFields} onToggle={toggleLock} error={fieldErrors.lockedFields} />
      {buyer?.paused && (
        <p className="text-sm text-amber-800 sm:col-span-2">
          The buyer paused itself in its portal{buyer.pausedAt ? ` on ${formatTime(buyer.pausedAt)}` : ''}: it gets
          no leads until it resumes there.
        </p>
      )}
      <div className="sm:col-span-2">
        {input('secret', 'Signing secret', { type: 'password', autoComplete: 'new-password', maxLength: 200 },
          buyer ? 'A secret is set; leave empty to keep it.' : 'whsec_…; leave empty to have one made.')}
      </div>
    </EditorForm>
  )
}
