import { Star } from 'lucide-react'

/** A rating of 1-5 as five stars, read out as "4 of 5 stars" (the portal and the console). */
export function Stars({ stars }: { stars: number }) {
  return (
    <span className="flex" role="img" aria-label={`${stars} of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} aria-hidden="true" className={`size-4 ${n <= stars ? 'fill-amber-400 text-amber-500' : 'text-slate-300'}`} />
      ))}
    </span>
  )
}
