import { useCatalogState } from '../lib/catalog-context'
import { StaticPage } from './static-page'

export default function AboutUsPage() {
  const state = useCatalogState()
  const brand = state.status === 'ready' ? state.catalog.config.brandName : 'ServiceMatch'
  return (
    <StaticPage
      title={`About ${brand}`}
      lead="We make it simple to find trusted local professionals for your home, legal, insurance and financial needs."
    >
      <div className="grid gap-10 md:grid-cols-3">
        <section aria-labelledby="for-consumers">
          <h2 id="for-consumers" className="text-2xl font-bold text-brand-900">For Consumers</h2>
          <p className="mt-3 text-slate-700">
            Tell {brand} what you need once, and we pass your request to up to 3 companies that serve your
            area: providers in our network, and lead buyers that may pass it on to providers they work with.
            The thank-you page or your e-mail receipt names each one. It is free, and you are never obliged to hire anyone.
          </p>
        </section>
        <section aria-labelledby="our-commitment">
          <h2 id="our-commitment" className="text-2xl font-bold text-brand-900">Our Commitment</h2>
          <p className="mt-3 text-slate-700">
            Providers join by an operator's invitation or by an application an operator approves. Where a
            service needs a licence, an operator checks it before we call the provider licence-checked. Your information is protected with
            256-bit encryption, and services are provided by independent third parties.
          </p>
        </section>
        <section aria-labelledby="what-consumers-say">
          <h2 id="what-consumers-say" className="text-2xl font-bold text-brand-900">What Consumers Say</h2>
          <p className="mt-3 text-slate-700">
            After a provider takes on a request, we ask the consumer to rate it. Once enough consumers have,
            our pages show the average of their ratings, and never a rating nobody gave.
          </p>
        </section>
      </div>
    </StaticPage>
  )
}
