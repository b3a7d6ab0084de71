import { MapPin, Star } from 'lucide-react'
import { Link } from 'react-router'
import { age, formatDate, formatMoney, timeLeft } from '../format'
import type { OfferSummary } from '../paying-types'
import { offerPath } from '../paths'
import { canAccept, stateLabel } from './filters'

export function ExclusiveBadge() {
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-bold text-orange-900">
      <Star size={12} aria-hidden="true" /> Exclusive
    </span>
  )
}

/** One offer in the list: the whole card opens it. */
export function OfferCard({ offer, now }: { offer: OfferSummary; now: number }) {
  const left = canAccept(offer, now) ? timeLeft(offer.expiresAt, now) : null
  return (
    <li>
      <Link to={offerPath(offer.id)}
        className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <span className="text-lg font-bold text-brand-900">{offer.serviceName}</span>
              {offer.exclusive ? <ExclusiveBadge /> : null}
            </p>
            <p className="mt-1 flex items-center gap-1 text-sm text-slate-700">
              <MapPin size={14} aria-hidden="true" className="shrink-0" /> {offer.city}, {offer.state} {offer.zip}
            </p>
          </div>
          <p className="shrink-0 text-right text-lg font-bold text-slate-900">{formatMoney(offer.priceCents)}</p>
        </div>
        <p className="mt-2 flex flex-wrap justify-between gap-x-3 text-sm text-slate-600">
          <span>{age(offer.createdAt, now)}</span>
          {left ? <span className="font-semibold text-amber-800">{left}</span>
            : <span>{stateLabel(offer, now)}{offer.decidedAt ? ` ${formatDate(offer.decidedAt)}` : ''}</span>}
        </p>
      </Link>
    </li>
  )
}
