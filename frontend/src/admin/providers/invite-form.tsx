import { useState } from 'react'
import type { components } from '../../lib/api-schema'
import { request } from '../api'
import { EditorForm, useSave } from '../directory-parts'
import { Field, inputClass } from '../ui'

type Invited = components['schemas']['Invited']

const list = (text: string) => text.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean)

/** Invite a provider: it joins in review mode and is e-mailed a link (72 hours) to choose its portal password. */
export function InviteForm({ onInvited, onCancel }: { onInvited: (message: string) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState({ name: '', email: '', services: '', area: 'zips', zips: '', radius: '25', states: '',
    licenceNumber: '', licenceState: '' })
  const set = (key: keyof typeof draft, value: string) => setDraft((d) => ({ ...d, [key]: value }))
  const { save, error, fieldErrors, busy } = useSave(async () => {
    const byZips = draft.area === 'zips'
    const answer = await request<Invited>('POST', '/providers/invite', {
      name: draft.name.trim(), email: draft.email.trim(), services: list(draft.services),
      zips: byZips ? list(draft.zips) : [], radiusMiles: byZips && draft.radius.trim() ? Number(draft.radius) : null,
      states: byZips ? [] : list(draft.states).map((s) => s.toUpperCase()),
      licenceNumber: draft.licenceNumber.trim() || null, licenceState: draft.licenceState.trim().toUpperCase() || null,
    })
    onInvited(answer.email.sent ? `Invited ${draft.name.trim()}: the invitation was e-mailed to ${draft.email.trim()}.`
      : `Invited ${draft.name.trim()}, but the e-mail was not sent (${answer.email.error}): send it again from its card.`)
  })
  const input = (key: keyof typeof draft, label: string, extra: Record<string, unknown> = {}, hint?: string) => (
    <Field label={label} hint={hint} error={fieldErrors[key === 'radius' ? 'radiusMiles' : key]}>
      <input className={inputClass} value={draft[key]} onChange={(e) => set(key, e.currentTarget.value)} {...extra} />
    </Field>
  )
  return (
    <EditorForm title="Invite a provider" save={save} error={error} busy={busy} saveLabel="Send the invitation" onCancel={onCancel}>
      {input('name', 'Business name', { required: true, maxLength: 200 })}
      {input('email', 'E-mail (the sign-in name)', { type: 'email', required: true })}
      <div className="sm:col-span-2">
        {input('services', 'Services', { required: true }, 'Catalogue ids, comma-separated (services/hvac, roofing, legal/auto-accident).')}
      </div>
      <Field label="Service area">
        <select className={inputClass} value={draft.area} onChange={(e) => set('area', e.currentTarget.value)}>
          <option value="zips">ZIP codes and a radius</option>
          <option value="states">Whole states</option>
        </select>
      </Field>
      {draft.area === 'zips' ? (<>
        {input('zips', 'ZIP codes', { inputMode: 'numeric' }, 'Comma-separated.')}
        {input('radius', 'Radius (miles)', { type: 'number', min: 1, max: 500 })}
      </>) : input('states', 'States', {}, 'Two-letter codes, comma-separated (DC included).')}
      {input('licenceNumber', 'Licence number', { maxLength: 40 }, 'Needed for services that need a licence.')}
      {input('licenceState', 'Licence state', { maxLength: 2 }, 'Two letters.')}
    </EditorForm>
  )
}
