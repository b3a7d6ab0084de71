import { useState } from 'react'
import { request } from '../api'
import { EditorForm, useSave } from '../directory-parts'
import { type AccountMoney, TermsFields, termsBody, termsDraftOf } from '../terms-fields'
import type { Provider } from '../types'
import { Field, inputClass } from '../ui'

interface Draft {
  name: string
  email: string
  webhookUrl: string
  webhookSecret: string
  services: string
  states: string
  zips: string
  radiusMiles: string
  dailyCap: string
  leadPrice: string
  creditCapPercent: string
  minQuality: string
}

const list = (text: string) => text.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean)
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))

function draftOf(provider: Provider | null): Draft {
  return {
    name: provider?.name ?? '',
    email: provider?.email ?? '',
    webhookUrl: provider?.webhookUrl ?? '',
    // Never shown: the server does not send it back. Empty keeps the one stored.
    webhookSecret: '',
    services: provider?.services.join(', ') ?? '',
    states: provider?.states.join(', ') ?? '',
    zips: provider?.zips.join(', ') ?? '',
    radiusMiles: provider?.radiusMiles?.toString() ?? '',
    dailyCap: provider?.dailyCap?.toString() ?? '',
    leadPrice: provider?.leadPriceCents != null ? (provider.leadPriceCents / 100).toFixed(2) : '',
    creditCapPercent: provider?.creditCapPercent?.toString() ?? '20',
    minQuality: provider?.minQuality?.toString() ?? '',
  }
}

/** Dollars typed ("45", "45.50") as cents; empty as null (the service's list price). */
const centsOrNull = (text: string) => (text.trim() === '' ? null : Math.round(Number(text) * 100))

/** The body the server takes: lists as arrays, empty numbers as null (no limit). */
export function providerBody(draft: Draft) {
  return {
    name: draft.name.trim(),
    email: draft.email.trim(),
    webhookUrl: draft.webhookUrl.trim() || null,
    ...(draft.webhookSecret ? { webhookSecret: draft.webhookSecret } : {}),
    services: list(draft.services),
    states: list(draft.states).map((s) => s.toUpperCase()),
    zips: list(draft.zips),
    radiusMiles: numberOrNull(draft.radiusMiles),
    dailyCap: numberOrNull(draft.dailyCap),
    leadPriceCents: centsOrNull(draft.leadPrice),
    creditCapPercent: numberOrNull(draft.creditCapPercent) ?? 20,
    minQuality: numberOrNull(draft.minQuality),
  }
}

export function ProviderForm({ provider, onSaved, onCancel }: {
  provider: (Provider & Partial<AccountMoney>) | null
  onSaved: () => void
  onCancel: () => void
}) {
  const [draft, setDraft] = useState(() => draftOf(provider))
  const [terms, setTerms] = useState(() => termsDraftOf(provider))
  const input = (key: keyof Draft, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors[key]}>
      <input className={inputClass} value={draft[key]}
        onChange={(e) => { const value = e.currentTarget.value; setDraft((d) => ({ ...d, [key]: value })) }} {...extra} />
    </Field>
  )

  const { save, error, fieldErrors, busy } = useSave(async () => {
    const body = { ...providerBody(draft), ...termsBody(terms) }
    if (provider) await request('PATCH', `/providers/${encodeURIComponent(String(provider.id))}`, body)
    else await request('POST', '/providers', body)
    onSaved()
  })

  return (
    <EditorForm title={provider ? `Edit ${provider.name}` : 'New provider'} save={save} error={error} busy={busy}
      saveLabel="Save provider" onCancel={onCancel}>
      {input('name', 'Name', { required: true, maxLength: 200 })}
      {input('email', 'Contact e-mail', { type: 'email', required: true })}
      {input('webhookUrl', 'Webhook URL', { type: 'url', placeholder: 'https://…' }, 'Leave empty to deliver by e-mail only.')}
      {input('webhookSecret', 'Webhook signing secret', { type: 'password', autoComplete: 'new-password', maxLength: 200 },
        provider?.hasWebhookSecret ? 'A secret is set; leave empty to keep it.' : 'Optional: signs each webhook POST.')}
      <div className="sm:col-span-2">
        {input('services', 'Services', { required: true }, 'Service slugs, comma-separated (hvac, roofing, legal/auto-accident).')}
      </div>
      {input('states', 'States', {}, 'Two-letter codes, comma-separated.')}
      {input('zips', 'ZIP codes', { inputMode: 'numeric' }, 'Comma-separated; the radius is measured from these.')}
      {input('radiusMiles', 'Radius (miles)', { type: 'number', min: 1, max: 500, step: 'any' })}
      {input('dailyCap', 'Daily cap (leads)', { type: 'number', min: 1, step: 1 }, 'Empty: no cap.')}
      {input('leadPrice', 'Lead price ($)', { type: 'number', min: 0.01, max: 10000, step: 0.01, inputMode: 'decimal' },
        'What one accepted lead costs this provider. Empty: the service\'s list price.')}
      {input('creditCapPercent', 'Credit cap (%)', { type: 'number', min: 0, max: 100, step: 1, required: true },
        'Credits a month, as a share of the month\'s accepted leads (at least one unless 0).')}
      {input('minQuality', 'Minimum quality score', { type: 'number', min: 0, max: 100, step: 1, inputMode: 'numeric' },
        '0-100: a lead scored under it is neither sent nor offered to this provider. Empty: any score.')}
      <TermsFields draft={terms} onChange={setTerms} errors={fieldErrors} account={provider} />
    </EditorForm>
  )
}
