import { useState, type FormEvent } from 'react'
import { AreaFields } from '../../components/area-fields'
import { buttonClasses } from '../../components/button-classes'
import { LabelledInput } from '../../components/labelled-input'
import { ServiceCheckboxes } from '../../components/service-checkboxes'
import { areaBody, areaDraft, licencesNeeded, type PartnerOptions } from '../../lib/partner-options'
import { PortalError, providerPath, request, type Profile, type ProfileChanges } from '../api'
import { Card, ErrorNotice, inputClass, SuccessNotice } from '../ui'
import { HoursFields } from './hours-fields'

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))

/** What the provider offers, where, when and how much: checked whole by the server, saved at once. */
export function ProfileForm({ profile, options, onSaved }: {
  profile: Profile
  options: PartnerOptions
  onSaved: (profile: Profile) => void
}) {
  const [services, setServices] = useState(profile.services)
  const [area, setArea] = useState(() => areaDraft(profile.zips, profile.radiusMiles, profile.states))
  const [hours, setHours] = useState(profile.hours)
  const [dailyCap, setDailyCap] = useState(profile.dailyCap?.toString() ?? '')
  const [weeklyBudget, setWeeklyBudget] = useState(profile.weeklyBudget?.toString() ?? '')
  const [minQuality, setMinQuality] = useState(profile.minQuality?.toString() ?? '')
  const [licence, setLicence] = useState({ number: profile.licenceNumber ?? '', state: profile.licenceState ?? '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const needed = licencesNeeded(options.services, services)

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setSaved(null)
    const changes: ProfileChanges = {
      services, ...areaBody(area), hours, dailyCap: numberOrNull(dailyCap), weeklyBudget: numberOrNull(weeklyBudget),
      minQuality: numberOrNull(minQuality),
      licenceNumber: licence.number.trim() || null, licenceState: licence.state || null,
    }
    try {
      onSaved(await request<Profile>('PATCH', providerPath(profile.id), changes))
      setErrors({})
      setSaved('Saved.')
    } catch (failure) {
      const answer = failure as PortalError
      setError(answer.message)
      setErrors(answer.fields)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title="Your profile" id="profile-heading">
      <form onSubmit={save} noValidate aria-label="Your profile" className="space-y-6">
        <ServiceCheckboxes services={options.services} chosen={services} onChange={setServices} error={errors.services} />
        <AreaFields area={area} states={options.states} onChange={setArea} errors={errors} />
        <HoursFields hours={hours} onChange={setHours} error={errors.hours ?? Object.entries(errors)
          .find(([field]) => field.startsWith('hours.'))?.[1]} />
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold text-slate-800">Limits</legend>
          <LabelledInput id="profile-daily-cap" label="Leads a day, at most" type="number" min={1} inputMode="numeric"
            hint="Empty: no daily cap." value={dailyCap} error={errors.dailyCap}
            onChange={(e) => setDailyCap(e.currentTarget.value)} />
          <LabelledInput id="profile-weekly-budget" label="Weekly budget ($)" type="number" min={1} step="0.01"
            inputMode="decimal" hint="Kept with your profile for accepted offers, once they are on. Empty: none."
            value={weeklyBudget} error={errors.weeklyBudget} onChange={(e) => setWeeklyBudget(e.currentTarget.value)} />
          <LabelledInput id="profile-min-quality" label="Minimum lead quality score" type="number" min={0} max={100}
            step={1} inputMode="numeric" value={minQuality} error={errors.minQuality}
            hint="0-100: leads we scored under it are neither sent nor offered to you. Empty: any score."
            onChange={(e) => setMinQuality(e.currentTarget.value)} />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="mb-2 text-sm font-semibold text-slate-800">Licence</legend>
          <p className="text-sm text-slate-600">
            {needed.length ? `Your services need: ${needed.join('; ')}.` : 'None of your services needs one; add yours if you hold one.'}
            {' '}A new number waits for our team's check before the verified badge shows again.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <LabelledInput id="profile-licence-number" label="Licence number" maxLength={40} value={licence.number}
              error={errors.licenceNumber}
              onChange={(e) => { const number = e.currentTarget.value; setLicence((l) => ({ ...l, number })) }} />
            {/* A label beside the select, not around it: around it, the options' text would join its name. */}
            <div>
              <label htmlFor="profile-licence-state" className="mb-1 block text-sm font-semibold text-slate-800">Issuing state</label>
              <select id="profile-licence-state" className={inputClass} value={licence.state}
                aria-invalid={errors.licenceState ? true : undefined} aria-describedby="profile-licence-state-error"
                onChange={(e) => { const state = e.currentTarget.value; setLicence((l) => ({ ...l, state })) }}>
                <option value="">None</option>
                {options.states.map((state) => <option key={state.value} value={state.value}>{state.label}</option>)}
              </select>
              <p id="profile-licence-state-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{errors.licenceState ?? ''}</p>
            </div>
          </div>
        </fieldset>
        <ErrorNotice message={error} />
        <SuccessNotice message={saved} />
        <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </Card>
  )
}
