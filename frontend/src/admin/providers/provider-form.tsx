import { useState, type FormEvent } from 'react'
import { ConsoleError, request } from '../api'
import type { Provider } from '../types'
import { buttonClass, ErrorNotice, Field, inputClass } from '../ui'

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
  }
}

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
  }
}

export function ProviderForm({ provider, onSaved, onCancel }: {
  provider: Provider | null
  onSaved: () => void
  onCancel: () => void
}) {
  const [draft, setDraft] = useState(() => draftOf(provider))
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)

  const input = (key: keyof Draft, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors[key]}>
      <input className={inputClass} value={draft[key]}
        onChange={(e) => { const value = e.currentTarget.value; setDraft((d) => ({ ...d, [key]: value })) }} {...extra} />
    </Field>
  )

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setFieldErrors({})
    try {
      if (provider) await request('PATCH', `/providers/${encodeURIComponent(String(provider.id))}`, providerBody(draft))
      else await request('POST', '/providers', providerBody(draft))
      onSaved()
    } catch (failure) {
      const answer = failure as ConsoleError
      setError(answer.message)
      setFieldErrors(answer.fields)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={save} aria-label={provider ? `Edit ${provider.name}` : 'New provider'}
      className="grid gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4 sm:grid-cols-2">
      <h2 className="text-base font-semibold sm:col-span-2">{provider ? `Edit ${provider.name}` : 'New provider'}</h2>
      <div className="sm:col-span-2"><ErrorNotice message={error} /></div>
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
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>{busy ? 'Saving…' : 'Save provider'}</button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
