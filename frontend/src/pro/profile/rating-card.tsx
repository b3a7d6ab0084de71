import { Star } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { components } from '../../lib/api-schema'
import { Stars } from '../../components/stars'
import { hasRating, ratingInWords } from '../../lib/rating'
import { PortalError, providerPath, request, type Profile } from '../api'
import { Card, ErrorNotice } from '../ui'

type Reviews = components['schemas']['ProviderReviews']
const SHOWN = 5

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' })

/** Consumers' rating of the provider (hidden reviews left out) and the latest reviews. */
export function RatingCard({ profile }: { profile: Profile }) {
  const [reviews, setReviews] = useState<Reviews | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    if (!profile.rating.count) return
    request<Reviews>('GET', providerPath(profile.id, '/reviews'))
      .then(setReviews)
      .catch((failure: PortalError) => setError(failure.message))
  }, [profile.id, profile.rating.count])

  const rating = profile.rating
  return (
    <Card title="Rating" id="rating-heading">
      {hasRating(rating) ? (
        <div className="space-y-3">
          <p className="flex items-center gap-2 text-base">
            <Star aria-hidden="true" className="size-6 fill-amber-400 text-amber-500" />
            <span className="text-2xl font-bold text-slate-900">{rating.average.toFixed(1)}</span>
            <span className="text-slate-700">out of 5 from {rating.count} review{rating.count === 1 ? '' : 's'}</span>
            <span className="sr-only">Rated {ratingInWords(rating)}</span>
          </p>
          <ErrorNotice message={error} />
          {reviews?.items.length ? (
            <ul className="divide-y divide-slate-100">
              {reviews.items.slice(0, SHOWN).map((review) => (
                <li key={review.id} className="space-y-1 py-3">
                  <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                    <Stars stars={review.stars} />
                    <span>{[review.city, review.state].filter(Boolean).join(', ')}</span>
                    <span>{day(review.createdAt)}</span>
                  </div>
                  {review.text ? <p className="break-words text-slate-900">{review.text}</p> : null}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <p className="text-slate-700">
          No ratings yet. A week after you accept a lead, we ask the customer to rate you from 1 to 5 stars.
        </p>
      )}
    </Card>
  )
}
