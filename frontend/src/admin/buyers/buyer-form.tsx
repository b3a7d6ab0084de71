import { useState } from 'react'
import { request } from '../api'
import { EditorForm, useSave } from '../directory-parts'
import type { Buyer } from '../types'
import { Field, inputClass } from '../ui'

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
}

const list = (text: string) => text.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean)
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))
const textOf = (value: number | null | undefined) => value?.toString() ?? ''

function draftOf(buyer: Buyer | null): Draft {
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
  }
}

export function BuyerForm({ buyer, onSaved, onCancel }: {
  buyer: Buyer | null
  // A new buyer's answer carries its signing secret, shown once.
  onSaved: (saved: Buyer & { secret?: string }) => void
  onCancel: () => void
}) {
  const [draft, setDraft] = useState(() => draftOf(buyer))
  const set = (key: keyof Draft, value: string) => setDraft((d) => ({ ...d, [key]: value }))

  const input = (key: keyof Draft, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors[key]}>
      <input className={inputClass} value={draft[key]}
        onChange={(e) => set(key, e.currentTarget.value)} {...extra} />
    </Field>
  )

  const { save, error, fieldErrors, busy } = useSave(async () => {
    onSaved(buyer
      ? await request<Buyer>('PATCH', `/buyers/${encodeURIComponent(buyer.id)}`, buyerBody(draft))
      : await request<Buyer & { secret: string }>('POST', '/buyers', buyerBody(draft)))
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
      <div className="sm:col-span-2">
        {input('secret', 'Signing secret', { type: 'password', autoComplete: 'new-password', maxLength: 200 },
          buyer ? 'A secret is set; leave empty to keep it.' : 'whsec_…; leave empty to have one made.')}
      </div>
    </EditorForm>
  )
}
