import { useEffect, useState } from 'react'
import { useParams } from 'react-router'
import { Container } from '../components/container'
import { CatalogError, LoadingState } from '../components/loading-state'
import { ConsumerRating } from '../components/consumer-rating'
import { LeadForm } from '../features/lead-form/lead-form'
import { ApiError, fetchService, knownService } from '../lib/api'
import { useCatalogState } from '../lib/catalog-context'
import { stateName } from '../lib/service-lookup'
import type { ServiceConfig } from '../lib/types'
import NotFoundPage from './not-found'
import { FaqList, HowItWorks, StatesGrid, WhyUse } from './service-sections'

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; service: ServiceConfig }
  | { status: 'missing' }
  | { status: 'error'; message: string }

function useService(slug: string, vertical?: string): Loaded {
  const key = `${vertical ?? ''}/${slug}`
  // The page's own service is in the HTML: render it at once, as the build rendered it.
  const [loaded, setLoaded] = useState<Loaded & { key?: string }>(() => {
    const service = knownService(slug, vertical)
    return service ? { status: 'ready', service, key } : { status: 'loading' }
  })
  useEffect(() => {
    let cancelled = false
    fetchService(slug, vertical)
      .then((service) => !cancelled && setLoaded({ status: 'ready', service, key }))
      .catch((error: Error) => {
        if (cancelled) return
        const missing = error instanceof ApiError && error.status === 404
        setLoaded(missing ? { status: 'missing', key } : { status: 'error', message: error.message, key })
      })
    return () => {
      cancelled = true
    }
  }, [slug, vertical, key])
  // Moving between services shows the loader instead of the previous service for a moment.
  return loaded.key === key ? loaded : { status: 'loading' }
}

export default function ServicePage() {
  const params = useParams()
  // The last segment of the service parameter is the configuration key (spec section 2).
  const slug = (params.service ?? '').split('/').pop() ?? ''
  const loaded = useService(slug, params.vertical)
  const catalogState = useCatalogState()
  const catalog = catalogState.status === 'ready' ? catalogState.catalog : null

  if (loaded.status === 'loading') return <LoadingState />
  if (loaded.status === 'error') return <CatalogError message={loaded.message} />
  if (loaded.status === 'missing') {
    return <NotFoundPage title="Service Not Found" message="We could not find the service you are looking for." />
  }
  const { service } = loaded
  const inState = catalog ? stateName(catalog, params.state) : undefined
  const title = inState ? `${service.title} in ${inState}` : service.title
  const brandName = catalog?.config.brandName ?? 'ServiceMatch'

  return (
    <>
      <section className="hidden bg-gradient-to-br from-brand-900 to-brand-700 text-white lg:block">
        <Container className="py-14">
          <div className="max-w-[calc(100%-460px)]">
            <h1 className="text-4xl font-extrabold leading-tight">{title}</h1>
            <p className="mt-4 text-lg text-brand-100">{service.description}</p>
          </div>
        </Container>
      </section>
      <Container className="lg:grid lg:grid-cols-[minmax(0,1fr)_420px] lg:items-start lg:gap-10">
        {/* The column stretches to the row's height, so the form inside it has room to stick. */}
        <div className="pt-4 lg:order-2 lg:-mt-44 lg:self-stretch lg:pt-0">
          <div id="lead-form" className="lg:sticky lg:top-20">
            <LeadForm
              service={service}
              stateCode={params.state?.toUpperCase()}
              intro={
                // The desktop hero carries the headline; on phones the form card does, once.
                <>
                  <div className="lg:hidden">
                    <h1 className="text-xl font-bold text-brand-900 sm:text-2xl">{title}</h1>
                    <p className="mt-2 text-sm text-slate-600">{service.description}</p>
                  </div>
                  <p className="hidden text-lg font-bold text-brand-900 lg:block">Compare free quotes from local pros</p>
                </>
              }
            />
          </div>
        </div>
        <div className="lg:order-1">
          <WhyUse brandName={brandName} />
          <HowItWorks />
          <FaqList faqs={service.faqs} />
          {/* Consumers' real rating once there are enough reviews (docs/site-claims.md); none on legal pages. */}
          {service.vertical === 'legal' ? null : <ConsumerRating className="py-10" />}
          {catalog ? <StatesGrid service={service} states={catalog.site.states} /> : null}
        </div>
      </Container>
    </>
  )
}
