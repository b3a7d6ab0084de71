import { BadgeCheck, BellOff, Lock, Star, Wallet } from 'lucide-react'
import { averageInWords, reviewsInWords, useSiteRating } from '../lib/site-rating'

// The site's claims (the trust bar's) where the visitor decides: next to Submit.
const SIGNALS = [
  { icon: Wallet, text: '100% free' },
  { icon: BadgeCheck, text: 'No obligation' },
  { icon: Lock, text: '256-bit encryption' },
]

/** Four short reassurances under the Submit button: the fourth is consumers' real rating once there
 * are enough reviews (docs/site-claims.md), and the one-click opt-out until then. */
export function SubmitTrust() {
  const rating = useSiteRating()
  const fourth = rating
    ? { icon: Star, text: `Rated ${averageInWords(rating)} in ${reviewsInWords(rating)}` }
    : { icon: BellOff, text: 'Opt out at any time' }
  return (
    <ul aria-label="Why it is safe to submit" className="grid grid-cols-2 gap-x-3 gap-y-2 text-xs font-medium text-slate-600">
      {[...SIGNALS, fourth].map(({ icon: Icon, text }) => (
        <li key={text} className="flex items-center gap-1.5">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
          {text}
        </li>
      ))}
    </ul>
  )
}
