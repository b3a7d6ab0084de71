import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { Button } from '../components/button'
import { CategoryIllustration } from '../components/category-illustration'
import { ConsumerRating } from '../components/consumer-rating'
import { servicesOf } from '../components/catalog-links'
import { Container } from '../components/container'
import { SectionHeading } from '../components/section-heading'
import { TrustBar } from '../components/trust-bar'
import { AddressAutocomplete } from '../features/address/address-autocomplete'
import { resolveTypedAddress } from '../features/address/address-client'
import { useCatalogState } from '../lib/catalog-context'
import { paths } from '../lib/paths'
import { STORAGE_KEYS, writeJson, type StoredAddress } from '../lib/storage-keys'
import type { CatalogData } from '../lib/types'
import { useValueTypedBeforeHydration } from '../lib/typed-before-hydration'

// A slug offered by two verticals (debt-relief) needs its vertical in the path to stay unambiguous.
function serviceTarget(catalog: CatalogData, vertical: string, id: string): string {
  const shared = catalog.services.filter((s) => s.id === id).length > 1
  return shared ? paths.service(vertical, id) : `/services/${id}`
}

function QuoteSearch({ catalog }: { catalog: CatalogData | null }) {
  const navigate = useNavigate()
  const [serviceKey, setServiceKey] = useState('')
  const [addressText, setAddressText] = useState('')
  const [address, setAddress] = useState<StoredAddress | null>(null)
  // Each message sits under the control it is about.
  const [serviceProblem, setServiceProblem] = useState('')
  const [addressProblem, setAddressProblem] = useState('')
  const serviceField = useValueTypedBeforeHydration<HTMLSelectElement>(serviceKey, setServiceKey)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    // A complete address typed without a pick is as good as a pick.
    const chosen = address ?? (addressText.trim() ? await resolveTypedAddress(addressText) : null)
    setServiceProblem(serviceKey ? '' : 'Please select a service.')
    setAddressProblem(
      chosen ? '' : addressText.trim()
        ? 'Add the city and state or the ZIP code, or pick your address from the list.'
        : 'Please enter your address.',
    )
    if (!serviceKey || !chosen) return
    const [vertical, id] = serviceKey.split('/')
    writeJson(STORAGE_KEYS.address, chosen)
    navigate(catalog ? serviceTarget(catalog, vertical, id) : `/services/${id}`)
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-8 rounded-2xl bg-white p-4 text-left shadow-2xl sm:p-6">
      <div className="grid gap-4 md:grid-cols-[1fr_1.4fr_auto] md:items-start">
        <div>
          <label htmlFor="home-service" className="mb-1 block text-sm font-semibold text-slate-800">
            Service
          </label>
          <select
            ref={serviceField}
            id="home-service"
            value={serviceKey}
            onChange={(event) => {
              setServiceKey(event.target.value)
              setServiceProblem('')
            }}
            aria-invalid={serviceProblem ? true : undefined}
            aria-describedby="home-service-error"
            className="block min-h-12 w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-3 focus:ring-brand-100"
          >
            <option value="">Select a service...</option>
            {catalog?.categories.map((category) => (
              <optgroup key={category.id} label={category.name}>
                {servicesOf(catalog, category).map(({ service }) => (
                  <option key={service.id} value={`${category.id}/${service.id}`}>
                    {service.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p id="home-service-error" aria-live="polite" className="mt-1 min-h-5 text-sm font-medium text-red-700">
            {serviceProblem}
          </p>
        </div>
        <AddressAutocomplete
          id="home-address"
          label="Your address"
          placeholder="Start typing your street, city or ZIP"
          value={addressText}
          onChange={(text) => {
            setAddressText(text)
            setAddress(null)
            setAddressProblem('')
          }}
          onSelect={(picked) => {
            setAddress(picked)
            setAddressProblem('')
          }}
          error={addressProblem}
        />
        {/* Each field keeps a line for its message below it; the button lines up with the fields. */}
        <Button type="submit" className="w-full md:mt-6 md:w-auto">
          Get Quotes
        </Button>
      </div>
    </form>
  )
}

export default function HomePage() {
  const state = useCatalogState()
  const catalog = state.status === 'ready' ? state.catalog : null
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-600 text-white">
        <Container className="py-12 text-center sm:py-20">
          {/* Small and drawn above the headline, so the headline stays the largest thing painted. */}
          <img
            src="/illustrations/hero.svg"
            alt=""
            width={360}
            height={96}
            className="mx-auto mb-6 h-auto w-60 sm:w-[360px]"
          />
          <h1 className="text-3xl font-extrabold leading-tight sm:text-5xl">
            Find Trusted Local Service Professionals
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-100">
            Free to use. Compare up to 3 local pros for home services, legal help, insurance and financial needs.
          </p>
          <QuoteSearch catalog={catalog} />
          {state.status === 'error' ? (
            <p role="alert" className="mt-4 text-white">The services could not be loaded: {state.message}</p>
          ) : null}
        </Container>
      </section>
      <TrustBar />

      <section aria-labelledby="our-services" className="py-14 sm:py-20">
        <Container>
          <SectionHeading id="our-services" lead="Pick a category to see every service we match you with.">
            Our Services
          </SectionHeading>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {catalog?.categories.slice(0, 4).map((category) => (
              <li key={category.id}>
                <Link
                  to={paths.category(category.id)}
                  className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-600 hover:shadow-md focus-visible:outline-3 focus-visible:outline-brand-600"
                >
                  <CategoryIllustration id={category.id} className="h-[90px] w-[120px]" />
                  <span className="mt-4 text-lg font-bold text-brand-900">{category.name}</span>
                  <span className="mt-2 flex-1 text-sm text-slate-600">{category.description}</span>
                  <span className="mt-4 text-sm font-semibold text-brand-700">
                    {category.services.length} services →
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      {/* No testimonials or success stories: nobody wrote them (docs/site-claims.md). Consumers'
          real rating of the network's providers, once there are enough reviews. */}
      <Container>
        <ConsumerRating className="pb-14 sm:pb-20" />
      </Container>
    </>
  )
}
