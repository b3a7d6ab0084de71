import { usePrivacyControl } from '../lib/privacy-control'

/** The footer's plain-words note that the browser's Global Privacy Control is honoured. */
export function PrivacyControlNotice({ className }: { className: string }) {
  if (!usePrivacyControl()) return null
  return (
    <p data-testid="gpc-notice" className={className}>
      Global Privacy Control detected: we will not sell or share your information.
    </p>
  )
}
