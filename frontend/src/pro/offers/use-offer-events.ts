import { useEffect, useLayoutEffect, useRef } from 'react'
import { providerPath } from '../api'
import type { OfferChange } from '../paying-types'

interface Handlers {
  /** One of the provider's offers is new or changed. */
  onChange: (change: OfferChange) => void
  /** The stream (re)connected: whatever happened while it was away is read again. */
  onConnect: () => void
}

/**
 * The provider's live offer updates (GET /api/pro/providers/{id}/events, server-sent events). The
 * browser reconnects by itself after a dropped connection; a refused one (the session ended) stays
 * closed, and the page's next call signs the provider out.
 */
export function useOfferEvents(providerId: string, handlers: Handlers): void {
  const latest = useRef(handlers)
  useLayoutEffect(() => {
    latest.current = handlers
  })
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    const source = new EventSource(`/api/pro${providerPath(providerId, '/events')}`)
    const changed = (event: MessageEvent<string>) => {
      try {
        latest.current.onChange(JSON.parse(event.data) as OfferChange)
      } catch {
        // Not an offer's change: nothing to do.
      }
    }
    const connected = () => latest.current.onConnect()
    source.addEventListener('offer', changed)
    source.addEventListener('open', connected)
    return () => source.close()
  }, [providerId])
}
