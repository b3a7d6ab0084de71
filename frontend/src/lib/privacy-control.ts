// Global Privacy Control: the browser's opt-out of the sale and sharing of personal information,
// seen as navigator.globalPrivacyControl or, when the browser only sends the Sec-GPC header,
// as the data-gpc mark the server puts on the page's <html>.
import { useEffect, useState } from 'react'

declare global {
  interface Navigator {
    globalPrivacyControl?: boolean
  }
}

export const privacyControlRequested = () =>
  navigator.globalPrivacyControl === true || document.documentElement.dataset.gpc === '1'

/** Whether the visitor's browser asks for GPC; false until mounted, since pages rendered ahead
 * of time know nothing of the visitor and the first render must match them. */
export function usePrivacyControl(): boolean {
  const [requested, setRequested] = useState(false)
  useEffect(() => setRequested(privacyControlRequested()), [])
  return requested
}
