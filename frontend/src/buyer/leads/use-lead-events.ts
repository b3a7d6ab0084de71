import { useEventStream } from '../../shell/use-event-stream'
import { API_PREFIX } from '../api'

/** What the event stream says when a lead is sold to this buyer. */
export interface LeadBought {
  id: string
  reference: string
}

interface Handlers {
  onBought: (lead: LeadBought) => void
  /** The stream (re)connected: what was bought while it was away, or before it first opened, is read again. */
  onConnect: () => void
}

/** The buyer's live purchases (GET /api/buyer/events, server-sent events). */
export function useLeadEvents({ onBought, onConnect }: Handlers): void {
  useEventStream(`${API_PREFIX}/events`, 'lead.bought', {
    onEvent: (data) => {
      if (typeof (data as Partial<LeadBought> | null)?.id === 'string') onBought(data as LeadBought)
    },
    onConnect,
  })
}
