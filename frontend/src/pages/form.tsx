import { useParams } from 'react-router'
import { LeadForm } from '../features/lead-form/lead-form'
import { ServiceStatus } from '../components/service-status'
import { serviceKey, useService } from '../lib/use-service'

/** /form/:service(/:state): the multi-step lead form on its own. */
export default function FormPage() {
  const { service: serviceParam, state } = useParams()
  const result = useService(serviceKey(serviceParam))
  if (result.status !== 'ready') return <ServiceStatus state={result} />
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-6 sm:py-10">
      <LeadForm
        service={result.service}
        stateCode={state}
        intro={
          <>
            <h1 className="text-xl font-bold text-brand-900 sm:text-2xl">{result.service.title}</h1>
            <p className="mt-2 text-sm text-slate-600">{result.service.description}</p>
          </>
        }
      />
    </div>
  )
}
