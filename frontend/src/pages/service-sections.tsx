// The informational sections of a service page (spec section 2, Service page).
import { Link } from 'react-router'
import { SectionHeading } from '../components/section-heading'
import { paths } from '../lib/paths'
import type { ServiceConfig } from '../lib/types'

const REASONS = [
  { title: 'No Stress', text: 'Tell us what you need once. We do the searching and bring local pros to you.' },
  { title: 'Save Time', text: 'Skip the phone calls and research. Get matched in minutes, not days.' },
  { title: 'Free Service', text: 'It costs nothing to request quotes and there is no obligation to hire.' },
  { title: 'Local Experts', text: 'Providers in our network who serve your area, and companies that connect you with them.' },
]

const STEPS = [
  { title: 'Tell us what you need', text: 'Answer a few quick questions about your project or situation.' },
  { title: 'Get matched', text: 'We pass your request to up to 3 companies that serve your area and take requests like yours.' },
  { title: 'Compare and choose', text: 'Talk with the pros, compare offers and pick the one that suits you.' },
]

export function WhyUse({ brandName }: { brandName: string }) {
  return (
    <section aria-labelledby="why-use" className="py-10">
      <SectionHeading id="why-use">Why Use {brandName}?</SectionHeading>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {REASONS.map((reason) => (
          <li key={reason.title} className="rounded-2xl border border-slate-200 bg-white p-5">
            <h3 className="font-bold text-brand-900">{reason.title}</h3>
            <p className="mt-1 text-sm text-slate-600">{reason.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function HowItWorks() {
  return (
    <section aria-labelledby="how-it-works" className="py-10">
      <SectionHeading id="how-it-works">How It Works</SectionHeading>
      <img
        src="/illustrations/how-it-works.svg"
        alt=""
        width={240}
        height={96}
        loading="lazy"
        decoding="async"
        className="mx-auto mt-6 h-24 w-60"
      />
      <ol className="mt-6 grid gap-4 sm:grid-cols-3">
        {STEPS.map((step, index) => (
          <li key={step.title} className="rounded-2xl bg-brand-50 p-5">
            <span className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
              {index + 1}
            </span>
            <h3 className="mt-3 font-bold text-brand-900">{step.title}</h3>
            <p className="mt-1 text-sm text-slate-600">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  )
}

export function FaqList({ faqs }: { faqs: ServiceConfig['faqs'] }) {
  return (
    <section aria-labelledby="faqs" className="py-10">
      <SectionHeading id="faqs">Frequently Asked Questions</SectionHeading>
      <div className="mt-8 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
        {faqs.map((faq) => (
          <details key={faq.question} className="group px-5 py-4">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-brand-900 focus-visible:outline-3 focus-visible:outline-brand-600">
              {faq.question}
              <span aria-hidden="true" className="text-xl text-brand-600 transition-transform group-open:rotate-45">+</span>
            </summary>
            <p className="mt-3 text-slate-600">{faq.answer}</p>
          </details>
        ))}
      </div>
    </section>
  )
}

export function StatesGrid({ service, states }: { service: ServiceConfig; states: { value: string; label: string }[] }) {
  return (
    <section aria-labelledby="all-states" className="py-10">
      <SectionHeading id="all-states">Available in All 50 States</SectionHeading>
      <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3 md:grid-cols-4">
        {states.map((state) => (
          <li key={state.value}>
            <Link
              to={paths.service(service.vertical, service.id, state.value)}
              className="inline-block py-1 text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              {service.name} in {state.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
