import type { Day, Hours, TimeZone } from '../api'
import { inputClass } from '../ui'

const DAYS: { value: Day; label: string }[] = [
  { value: 'mon', label: 'Mon' }, { value: 'tue', label: 'Tue' }, { value: 'wed', label: 'Wed' },
  { value: 'thu', label: 'Thu' }, { value: 'fri', label: 'Fri' }, { value: 'sat', label: 'Sat' },
  { value: 'sun', label: 'Sun' },
]
const ZONES: { value: TimeZone; label: string }[] = [
  { value: 'America/New_York', label: 'Eastern' }, { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' }, { value: 'America/Phoenix', label: 'Arizona' },
  { value: 'America/Los_Angeles', label: 'Pacific' }, { value: 'America/Anchorage', label: 'Alaska' },
  { value: 'Pacific/Honolulu', label: 'Hawaii' },
]
const WORKING_HOURS: Hours = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], opens: '08:00', closes: '18:00',
  timeZone: 'America/Chicago' }

/** When leads may come: any time (null), or these days between two times in one time zone. */
export function HoursFields({ hours, onChange, error }: {
  hours: Hours | null
  onChange: (hours: Hours | null) => void
  error?: string
}) {
  const set = (change: Partial<Hours>) => hours && onChange({ ...hours, ...change })
  const toggle = (day: Day, on: boolean) =>
    hours && set({ days: DAYS.map((d) => d.value).filter((d) => (d === day ? on : hours.days.includes(d))) })
  return (
    <fieldset className="space-y-3" aria-describedby="hours-error">
      <legend className="mb-2 text-sm font-semibold text-slate-800">When leads may come</legend>
      <label className="flex min-h-11 cursor-pointer items-center gap-3">
        <input type="checkbox" className="size-5 accent-brand-700" checked={hours !== null}
          onChange={(event) => onChange(event.currentTarget.checked ? WORKING_HOURS : null)} />
        <span className="text-base">Only at set hours <span className="text-sm text-slate-600">(off: any time)</span></span>
      </label>
      {hours && (
        <>
          <fieldset>
            <legend className="sr-only">Days</legend>
            <div className="grid grid-cols-7 gap-1">
              {DAYS.map((day) => (
                <label key={day.value} className="flex min-h-11 cursor-pointer flex-col items-center justify-center rounded-lg border border-slate-300 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:font-semibold">
                  <input type="checkbox" className="sr-only" checked={hours.days.includes(day.value)}
                    onChange={(event) => toggle(day.value, event.currentTarget.checked)} />
                  {day.label}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <label className="text-sm font-semibold text-slate-800">From
              <input type="time" className={`${inputClass} mt-1`} value={hours.opens} required
                onChange={(event) => set({ opens: event.currentTarget.value })} />
            </label>
            <label className="text-sm font-semibold text-slate-800">Until
              <input type="time" className={`${inputClass} mt-1`} value={hours.closes === '24:00' ? '23:59' : hours.closes} required
                onChange={(event) => set({ closes: event.currentTarget.value })} />
            </label>
            <div className="col-span-2 sm:col-span-1">
              <label htmlFor="hours-zone" className="text-sm font-semibold text-slate-800">Time zone</label>
              <select id="hours-zone" className={`${inputClass} mt-1`} value={hours.timeZone}
                onChange={(event) => set({ timeZone: event.currentTarget.value as TimeZone })}>
                {ZONES.map((zone) => <option key={zone.value} value={zone.value}>{zone.label}</option>)}
              </select>
            </div>
          </div>
        </>
      )}
      <p id="hours-error" aria-live="polite" className="text-sm font-medium text-red-700">{error ?? ''}</p>
    </fieldset>
  )
}
