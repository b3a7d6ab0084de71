import { averageInWords, reviewsInWords, useSiteRating } from '../lib/site-rating'

const FREE = { title: '100% Free', text: 'No cost to compare' }
// Where consumers' rating goes once there are enough reviews; until then, a claim that is always true.
const NO_OBLIGATION = { title: 'No Obligation', text: 'Hire only if you want to' }
const ENCRYPTION = { title: '256-bit Encryption', text: 'Your data is secure' }
const STATES = { title: 'All 50 States', text: 'Local pros nationwide' }

/** The trust claims of spec section 1, each with something behind it: free, consumers' real rating
 * (docs/site-claims.md) or no obligation, 256-bit encryption, all 50 states. */
export function TrustBar() {
  const rating = useSiteRating()
  const second = rating ? { title: averageInWords(rating), text: `From ${reviewsInWords(rating)}` } : NO_OBLIGATION
  return (
    <section aria-label="Why people trust us" className="border-y border-slate-200 bg-slate-50">
      <ul className="mx-auto grid max-w-6xl grid-cols-2 gap-4 px-4 py-6 text-center sm:px-6 md:grid-cols-4">
        {[FREE, second, ENCRYPTION, STATES].map((item) => (
          <li key={item.title}>
            <p className="text-lg font-bold text-brand-700">{item.title}</p>
            <p className="text-sm text-slate-600">{item.text}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}
