// "Who will contact you" on both thank-you pages: each company the request reached, said to be what
// it is (the status answer's recipients): a lead buyer, which may pass the request on, or a provider
// in the network; a licence-checked badge only where an operator checked the provider's licence.
import { BadgeCheck, Building2, Star } from 'lucide-react'
import { ratingInWords } from '../lib/rating'
import type { LeadStatus } from '../lib/types'

type Recipient = NonNullable<LeadStatus['recipients']>[number]

/** What a company is, in the consumer's words. */
function whatItIs(recipient: Recipient | undefined, service: string): string {
  const offers = service ? `companies that offer ${service}` : 'companies it works with'
  if (recipient?.kind === 'provider') return service ? `A provider in our network that offers ${service}` : 'A provider in our network'
  if (recipient?.kind === 'buyer') return `A lead buyer, which may pass your request on to ${offers}`
  return 'A company that received your request'
}

export function RecipientList({ title, companies, ratings, status }: {
  title: string
  companies: string[]
  ratings: Record<string, { average: number; count: number }>
  status: LeadStatus | null
}) {
  const kinds = new Map((status?.recipients ?? []).map((recipient) => [recipient.name, recipient]))
  const service = status?.service ?? ''
  return (
    <section aria-labelledby="who-contacts" className="mt-10 rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-sm sm:p-6">
      <h2 id="who-contacts" className="text-lg font-bold text-brand-900">{title}</h2>
      <ul className="mt-3 divide-y divide-slate-100">
        {companies.map((name) => {
          const recipient = kinds.get(name)
          return (
            <li key={name} className="flex gap-3 py-3">
              <Building2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="font-semibold text-slate-800">{name}</span>
                  {recipient?.licenceChecked ? (
                    <span className="inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-800">
                      <BadgeCheck aria-hidden="true" className="size-4" />
                      Licence checked
                    </span>
                  ) : null}
                  {ratings[name] ? (
                    <span className="flex items-center gap-1 text-sm text-slate-700">
                      <Star aria-hidden="true" className="size-4 fill-amber-400 text-amber-500" />
                      <span>Rated {ratingInWords(ratings[name])}</span>
                    </span>
                  ) : null}
                </p>
                <p className="mt-0.5 text-sm text-slate-600">{whatItIs(recipient, service)}</p>
              </div>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
