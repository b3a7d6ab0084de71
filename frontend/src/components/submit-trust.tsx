import { BadgeCheck, Lock, Star, Wallet } from 'lucide-react'

// The site's claims (the trust bar's) where the visitor decides: next to Submit.
const SIGNALS = [
  { icon: Wallet, text: '100% free' },
  { icon: BadgeCheck, text: 'No obligation' },
  { icon: Lock, text: '256-bit encryption' },
  { icon: Star, text: 'Rated 4.8 by users' },
]

/** Four short reassurances under the Submit button. */
export function SubmitTrust() {
  return (
    <ul aria-label="Why it is safe to submit" className="grid grid-cols-2 gap-x-3 gap-y-2 text-xs font-medium text-slate-600">
      {SIGNALS.map(({ icon: Icon, text }) => (
        <li key={text} className="flex items-center gap-1.5">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
          {text}
        </li>
      ))}
    </ul>
  )
}
