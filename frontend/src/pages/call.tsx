import { useEffect } from 'react'
import { useLocation, useParams } from 'react-router'
import { AddressAutocomplete } from '../features/address/address-autocomplete'
import { CallFlow } from '../features/call-flow/call-flow'
import { formatAddress } from '../features/call-flow/call-steps'
import { ServiceStatus } from '../components/service-status'
import { useCatalogState } from '../lib/catalog-context'
import type { StoredAddress } from '../lib/storage-keys'
import { loadCallTracking } from '../lib/third-party/call-tracking'
import { serviceKey, useService } from '../lib/use-service'

/** An address handed over in navigation state: a one-line string or the home page's pick. */
function addressFromState(state: unknown): string | undefined {
  const address = (state as { address?: string | StoredAddress } | null)?.address
  if (!address) return undefined
  return typeof address === 'string' ? address : formatAddress(address)
}

/** /call/:service(/:state): the call-flow questionnaire, then /call-thanks. */
export default function CallPage() {
  const { service: serviceParam } = useParams()
  const location = useLocation()
  const result = useService(serviceKey(serviceParam))
  const catalogState = useCatalogState()
  const config = catalogState.status === 'ready' ? catalogState.catalog.config : null
  const service = result.status === 'ready' ? result.service : null

  useEffect(() => {
    if (config && service) loadCallTracking(config.callTrackingScriptUrl, service.ringbaJSid)
  }, [config, service])

  if (result.status !== 'ready') return <ServiceStatus state={result} />
  // Only services with a number to call have a call flow.
  if (result.service.flow !== 'call') return <ServiceStatus state={{ status: 'not-found' }} />
  if (catalogState.status !== 'ready') return <ServiceStatus state={catalogState.status === 'error' ? catalogState : { status: 'loading' }} />

  const ready = result.service
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-6 sm:py-10">
      <h1 className="text-2xl font-bold text-brand-900 sm:text-3xl">{ready.title}</h1>
      <p className="mt-3 text-slate-700">{ready.description}</p>
      <div className="mt-6">
        <CallFlow
          service={ready}
          catalog={catalogState.catalog}
          initialAddress={addressFromState(location.state)}
          renderAddress={({ field, value, onChange, error }) => (
            // The message sits under the field, tied to it and read out as it appears.
            <AddressAutocomplete
              id={`field-${field.id}`}
              label={field.label}
              value={value}
              onChange={onChange}
              onSelect={(address) => onChange(formatAddress(address))}
              placeholder={field.placeholder ?? undefined}
              error={error ?? ''}
            />
          )}
        />
      </div>
    </div>
  )
}
