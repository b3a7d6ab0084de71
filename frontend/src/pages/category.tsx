import { Link, useParams } from 'react-router'
import { ButtonLink } from '../components/button'
import { servicesOf } from '../components/catalog-links'
import { CategoryIllustration } from '../components/category-illustration'
import { Container } from '../components/container'
import { CatalogError, LoadingState } from '../components/loading-state'
import { SectionHeading } from '../components/section-heading'
import { useCatalogState } from '../lib/catalog-context'
import type { ServiceSummary } from '../lib/types'
import NotFoundPage from './not-found'

// Spec section 9: a category features its first three services.
const FEATURED_COUNT = 3

function FeaturedCard({ service, to }: { service: ServiceSummary; to: string }) {
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h3 className="text-lg font-bold text-brand-900">{service.name}</h3>
      <p className="mt-2 flex-1 text-sm text-slate-600">{service.description}</p>
      <ButtonLink to={to} className="mt-5 w-full" aria-label={`Get quotes for ${service.name}`}>
        Get Quotes
      </ButtonLink>
    </li>
  )
}

export default function CategoryPage() {
  const { category: categoryId } = useParams()
  const state = useCatalogState()
  if (state.status === 'loading') return <LoadingState />
  if (state.status === 'error') return <CatalogError message={state.message} />
  const catalog = state.catalog
  const category = catalog.categories.find((c) => c.id === categoryId)
  if (!category) {
    return <NotFoundPage title="Category Not Found" message={`There is no category named “${categoryId}”.`} />
  }
  const services = servicesOf(catalog, category)
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 text-white">
        <Container className="py-12 sm:flex sm:items-center sm:justify-between sm:gap-8 sm:py-16">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-100">{category.name}</p>
            <h1 className="mt-2 max-w-3xl text-3xl font-extrabold sm:text-4xl">{category.title}</h1>
            <p className="mt-4 max-w-2xl text-lg text-brand-100">{category.description}</p>
          </div>
          <CategoryIllustration
            id={category.id}
            eager
            className="mt-6 h-[90px] w-[120px] shrink-0 sm:mt-0 sm:h-[150px] sm:w-[200px]"
          />
        </Container>
      </section>
      <section aria-labelledby="featured-services" className="py-12 sm:py-16">
        <Container>
          <SectionHeading id="featured-services">Featured Services</SectionHeading>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {services.slice(0, FEATURED_COUNT).map(({ service, to }) => (
              <FeaturedCard key={service.id} service={service} to={to} />
            ))}
          </ul>
        </Container>
      </section>
      <section aria-labelledby="all-services" className="bg-slate-50 py-12 sm:py-16">
        <Container>
          <SectionHeading id="all-services">All Services</SectionHeading>
          <ul className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {services.map(({ service, to }) => (
              <li key={service.id}>
                <Link
                  to={to}
                  className="flex items-center justify-between rounded-xl border border-slate-200 bg-white px-5 py-4 font-semibold text-brand-900 hover:border-brand-600 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-brand-600"
                >
                  {service.name}
                  <span aria-hidden="true">→</span>
                </Link>
              </li>
            ))}
          </ul>
        </Container>
      </section>
    </>
  )
}
