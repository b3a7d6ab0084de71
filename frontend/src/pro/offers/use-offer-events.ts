import { useEventStream } from '../../shell/use-event-stream'
import { providerPath } from '../api'
import type { OfferChange } from '../paying-types'

interface Handlers {
  /** One of the provider's offers is new or changed. */
  onChange: (change: OfferChange) => void
  /** The stream (re)connected: whatever happened while it was away is read again. */
  onConnect: () => void
}

/** The provider's live offer updates (GET /api/pro/providers/{id}/events, server-sent events). */
export function useOfferEvents(providerId: string, { onChange, onConnect }: Handlers): void {
  useEventStream(`/api/pro${providerPath(providerId, '/events')}`, 'offer', {
    onEvent: (data) => onChange(data as OfferChange),
    onConnect,
  })
}
