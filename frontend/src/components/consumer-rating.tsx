import { Star } from 'lucide-react'
import { averageInWords, reviewsInWords, useSiteRating } from '../lib/site-rating'
import { SectionHeading } from './section-heading'

/** "What Consumers Say": the average of the reviews consumers wrote about the providers they were
 * matched with, shown only once there are enough (docs/site-claims.md); nothing otherwise. */
export function ConsumerRating({ className = '' }: { className?: string }) {
  const rating = useSiteRating()
  if (!rating) return null
  return (
    <section aria-labelledby="consumers-say" className={className}>
      <SectionHeading id="consumers-say">What Consumers Say</SectionHeading>
      <div className="mx-auto mt-8 flex max-w-md flex-col items-center rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <p className="flex items-center gap-2 text-3xl font-extrabold text-brand-900">
          <Star aria-hidden="true" className="size-7 fill-amber-400 text-amber-500" />
          {averageInWords(rating)}
        </p>
        <p className="mt-2 text-slate-700">
          The average of {reviewsInWords(rating)} of the providers in our network, each written by a consumer
          the provider took a request from.
        </p>
      </div>
    </section>
  )
}
