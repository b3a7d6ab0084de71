import { useCatalogState } from '../lib/catalog-context'
import { StaticPage } from './static-page'

const FIGURES = [
  { value: '2016', label: 'Connecting people with pros since' },
  { value: '50K+', label: 'Projects completed' },
  { value: '10K+', label: 'Verified providers' },
  { value: '95%', label: 'Satisfaction rate' },
]

export default function AboutUsPage() {
  const state = useCatalogState()
  const brand = state.status === 'ready' ? state.catalog.config.brandName : 'ServiceMatch'
  return (
    <StaticPage
      title={`About ${brand}`}
      lead="We make it simple to find trusted local professionals for your home, legal, insurance and financial needs."
    >
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {FIGURES.map((figure) => (
          <li key={figure.label} className="rounded-2xl bg-brand-50 p-5 text-center">
            <p className="text-3xl font-extrabold text-brand-700">{figure.value}</p>
            <p className="mt-1 text-sm text-slate-600">{figure.label}</p>
          </li>
        ))}
      </ul>
      <div className="mt-12 grid gap-10 md:grid-cols-3">
        <section aria-labelledby="for-consumers">
          <h2 id="for-consumers" className="text-2xl font-bold text-brand-900">For Consumers</h2>
          <p className="mt-3 text-slate-700">
            Since 2016, {brand} has helped people find the right professional without the hours of searching.
            Tell us what you need and our proprietary matching algorithm connects you with up to 3 local
            providers who fit your request. It is free, and you are never obliged to hire anyone.
          </p>
        </section>
        <section aria-labelledby="our-commitment">
          <h2 id="our-commitment" className="text-2xl font-bold text-brand-900">Our Commitment</h2>
          <p className="mt-3 text-slate-700">
            We validate providers’ credentials and review their history of customer satisfaction before they
            join our network. Your information is protected with 256-bit encryption, and services are provided
            by independent third parties who compete to earn your business.
          </p>
        </section>
        <section aria-labelledby="industry-impact">
          <h2 id="industry-impact" className="text-2xl font-bold text-brand-900">Industry Impact</h2>
          <p className="mt-3 text-slate-700">
            With more than 50,000 projects completed, over 10,000 verified providers and a 95% satisfaction
            rate, we help local businesses grow while giving consumers a faster, clearer way to compare their
            options in all 50 states.
          </p>
        </section>
      </div>
    </StaticPage>
  )
}
