import { byVertical, type PartnerService } from '../lib/partner-options'

/** Every service a provider may offer, as checkboxes grouped by vertical, each naming the licence it needs. */
export function ServiceCheckboxes({ services, chosen, onChange, error }: {
  services: PartnerService[]
  chosen: string[]
  onChange: (chosen: string[]) => void
  error?: string
}) {
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((c) => c !== id))
  return (
    <fieldset aria-describedby="services-error" aria-invalid={error ? true : undefined}>
      <legend className="mb-2 text-sm font-semibold text-slate-800">Services you offer</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        {byVertical(services).map((group) => (
          <fieldset key={group.name} className="rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-brand-900">{group.name}</legend>
            <ul className="space-y-1">
              {group.services.map((service) => {
                const note = `licence-${service.id.replace('/', '-')}`
                return (
                  <li key={service.id}>
                    <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-1 py-2 hover:bg-slate-50">
                      <input type="checkbox" className="size-5 shrink-0 accent-brand-700" checked={chosen.includes(service.id)}
                        aria-describedby={service.licence ? note : undefined}
                        onChange={(event) => toggle(service.id, event.currentTarget.checked)} />
                      <span className="text-base text-slate-900">{service.name}</span>
                    </label>
                    {service.licence ? <p id={note} className="-mt-2 pb-1 pl-9 text-xs text-slate-600">Licence needed: {service.licence}</p> : null}
                  </li>
                )
              })}
            </ul>
          </fieldset>
        ))}
      </div>
      <p id="services-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{error ?? ''}</p>
    </fieldset>
  )
}
