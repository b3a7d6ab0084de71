import { lazy, Suspense, useEffect, useState } from 'react'
import { buttonClasses } from '../components/button-classes'
import { SectionHeading } from '../components/section-heading'
import { StaticPage } from './static-page'

// The form comes in a chunk of its own once the page is up: the page itself stays as light as
// the other text pages, and its pre-rendered HTML needs no form to hydrate.
const ApplicationForm = lazy(() => import('../features/partner-application/application-form'))

const PARTNER_EMAIL = 'partners@servicematch.example'

const BENEFITS = [
  { title: 'Verified Badge', text: 'Stand out with a verified provider badge that builds trust with consumers.' },
  { title: 'Matched Leads', text: 'Receive requests from consumers in your service area who need what you offer.' },
  { title: 'Pay Per Accepted Lead', text: 'Pay only for the leads you accept. No monthly fees, no long contracts.' },
  { title: 'Exclusive Leads', text: 'Each request is shared with a limited number of providers, never sold widely.' },
]

const REASONS = [
  'Grow your business with consumers who are ready to act',
  'Real-time notifications the moment a matching request arrives',
  'Reviews and ratings that showcase your best work',
  'Leads shared with a limited number of providers only',
  'Pay only for the leads you accept',
  'A dedicated partner team to help you succeed',
]

function ApplySection() {
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  return (
    <section id="apply" aria-labelledby="apply-heading" className="mt-14 scroll-mt-24 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
      <h2 id="apply-heading" className="text-2xl font-bold text-brand-900">Apply to join</h2>
      <p className="mt-2 text-slate-600">Tell us about your business, the services you offer and where you work.</p>
      <div className="mt-6">
        {mounted ? (
          <Suspense fallback={<p role="status" className="text-slate-600">Loading the application form…</p>}>
            <ApplicationForm />
          </Suspense>
        ) : (
          <p className="text-slate-600">Loading the application form…</p>
        )}
      </div>
    </section>
  )
}

export default function PartnerWithUsPage() {
  return (
    <StaticPage
      title="Partner With Us"
      lead="Join our network of trusted professionals and connect with consumers looking for your services."
    >
      <a href="#apply" className={buttonClasses('primary', 'mb-10')}>Apply to join</a>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {BENEFITS.map((benefit) => (
          <li key={benefit.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-lg font-bold text-brand-900">{benefit.title}</h2>
            <p className="mt-2 text-sm text-slate-600">{benefit.text}</p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="why-partner" className="mt-14">
        <SectionHeading id="why-partner">Why Providers Choose Us</SectionHeading>
        <ul className="mx-auto mt-8 grid max-w-4xl gap-3 sm:grid-cols-2">
          {REASONS.map((reason) => (
            <li key={reason} className="flex items-start gap-3 rounded-xl bg-brand-50 p-4 text-slate-800">
              <span aria-hidden="true" className="font-bold text-brand-700">✓</span>
              {reason}
            </li>
          ))}
        </ul>
      </section>
      <ApplySection />
      <section aria-labelledby="contact-sales" className="mt-14 rounded-2xl bg-brand-900 p-8 text-center text-white">
        <h2 id="contact-sales" className="text-2xl font-bold">Questions first?</h2>
        <p className="mt-2 text-brand-100">Our partner team will walk you through how it works.</p>
        <a href={`mailto:${PARTNER_EMAIL}?subject=Partner%20With%20Us`} className={buttonClasses('primary', 'mt-6')}>
          Contact Us Now
        </a>
      </section>
    </StaticPage>
  )
}
