import { useEffect, useRef, useState, type FormEvent } from 'react'
import { AreaFields } from '../../components/area-fields'
import { Button } from '../../components/button'
import { LabelledInput } from '../../components/labelled-input'
import { ServiceCheckboxes } from '../../components/service-checkboxes'
import type { components } from '../../lib/api-schema'
import { areaBody, fetchPartnerOptions, licencesNeeded, type AreaDraft, type PartnerOptions } from '../../lib/partner-options'
import { postJson } from '../../lib/post-json'

type Application = components['schemas']['PartnerApplication']
type Received = components['schemas']['PartnerMessage']

const EMPTY_AREA: AreaDraft = { kind: 'zips', zips: '', radius: '25', states: [] }

/** The application to join (POST /api/partner/applications): loaded after the page, in a chunk of its own. */
export default function ApplicationForm() {
  const [options, setOptions] = useState<PartnerOptions | null>(null)
  const [loadError, setLoadError] = useState('')
  const [contact, setContact] = useState({ businessName: '', contactName: '', email: '', phone: '' })
  const [services, setServices] = useState<string[]>([])
  const [area, setArea] = useState<AreaDraft>(EMPTY_AREA)
  const [licence, setLicence] = useState({ number: '', state: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState('')
  const [busy, setBusy] = useState(false)
  const [received, setReceived] = useState('')
  const done = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    fetchPartnerOptions().then(setOptions, (error: Error) => setLoadError(error.message))
  }, [])
  useEffect(() => {
    if (received) done.current?.focus()
  }, [received])

  if (loadError) return <p role="alert" className="text-red-700">{loadError}</p>
  if (!options) return <p role="status" className="text-slate-600">Loading the application form…</p>
  if (received) {
    return (
      <div className="rounded-xl border border-green-200 bg-green-50 p-6">
        <h3 ref={done} tabIndex={-1} className="text-xl font-bold text-green-900">Check your e-mail</h3>
        <p role="status" className="mt-2 text-green-900">{received}</p>
      </div>
    )
  }

  const needed = licencesNeeded(options.services, services)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setProblem('')
    const body: Application = {
      ...contact, services, ...areaBody(area),
      licenceNumber: licence.number.trim() || null, licenceState: licence.state || null,
    }
    const answer = await postJson<Received>('/api/partner/applications', body)
    setBusy(false)
    if (answer.ok) {
      setReceived(answer.data.message)
      return
    }
    setErrors(answer.failure.fields)
    setProblem(answer.failure.error)
  }
  const text = (key: keyof typeof contact, label: string, extra: Record<string, string> = {}) => (
    <LabelledInput id={`apply-${key}`} label={label} value={contact[key]} error={errors[key]} required {...extra}
      onChange={(event) => { const value = event.currentTarget.value; setContact((c) => ({ ...c, [key]: value })) }} />
  )

  return (
    <form onSubmit={submit} noValidate aria-label="Apply to join" className="space-y-6">
      {problem ? <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-red-800">{problem}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {text('businessName', 'Business name', { autoComplete: 'organization', maxLength: '200' })}
        {text('contactName', 'Your name', { autoComplete: 'name', maxLength: '200' })}
        {text('email', 'E-mail', { type: 'email', autoComplete: 'email', inputMode: 'email', maxLength: '254' })}
        {text('phone', 'Phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel', maxLength: '32' })}
      </div>
      <ServiceCheckboxes services={options.services} chosen={services} onChange={setServices} error={errors.services} />
      <AreaFields area={area} states={options.states} onChange={setArea} errors={errors} />
      {needed.length > 0 || errors.licenceNumber || errors.licenceState ? (
        <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Your licence</legend>
          <p className="text-sm text-slate-600">
            {needed.length ? `The services you chose need: ${needed.join('; ')}.` : 'Give the licence you hold.'} We
            check it before your profile shows the verified badge.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <LabelledInput id="apply-licence-number" label="Licence number" value={licence.number} maxLength={40}
              error={errors.licenceNumber} onChange={(event) => { const number = event.currentTarget.value; setLicence((l) => ({ ...l, number })) }} />
            <div>
              <label htmlFor="apply-licence-state" className="mb-1 block text-sm font-semibold text-slate-800">Issuing state</label>
              <select id="apply-licence-state" value={licence.state} aria-invalid={errors.licenceState ? true : undefined}
                aria-describedby="apply-licence-state-error"
                onChange={(event) => { const state = event.currentTarget.value; setLicence((l) => ({ ...l, state })) }}
                className="w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600">
                <option value="">Choose a state</option>
                {options.states.map((state) => <option key={state.value} value={state.value}>{state.label}</option>)}
              </select>
              <p id="apply-licence-state-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{errors.licenceState ?? ''}</p>
            </div>
          </div>
        </fieldset>
      ) : null}
      <p className="text-sm text-slate-600">
        We e-mail you a link to confirm your address; our team reviews your application once it is confirmed.
      </p>
      <Button type="submit" disabled={busy} className="w-full sm:w-auto">{busy ? 'Sending…' : 'Send my application'}</Button>
    </form>
  )
}
