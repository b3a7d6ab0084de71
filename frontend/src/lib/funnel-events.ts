// First-party funnel events (issue 13): what a visitor did, never who they are.
// Sent to the site's own POST /api/events with navigator.sendBeacon, so a page being left does
// not cancel them and nothing waits for an answer. Nothing here goes to a third party, and no
// event carries a name, a contact, a typed answer or an address: `answer` is only ever the
// catalogue text of a disqualifying option, which the server checks against the catalogue.
import { useEffect } from 'react'
import { STORAGE_KEYS } from './storage-keys'
import { storedAttribution } from './url-params'

export type FunnelEventType =
  | 'page_view' | 'step_view' | 'step_complete' | 'disqualified' | 'submitted' | 'call_click'

export interface FunnelEvent {
  type: FunnelEventType
  // The kind of page: 'home', 'category', 'service', 'form', 'call', ...; by default, the
  // current page's (routeTypeOf).
  routeType?: string
  service?: string
  vertical?: string
  // The questionnaire's step number as the catalogue gives it (hvac: 2 to 6, then 98 and 99 for
  // the contact and phone steps), so the dashboard can name each step from the catalogue.
  step?: number
  // disqualified only: the field id and the disqualifying option chosen.
  field?: string
  answer?: string
}

export const EVENTS_URL = '/api/events'

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // randomUUID needs a secure context; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')
}

let fallbackId: string | undefined

/** A random id for this tab, kept in sessionStorage: it groups one visit's events, nothing more. */
export function tabId(): string {
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEYS.funnelTabId)
    if (stored) return stored
    const fresh = randomId()
    window.sessionStorage.setItem(STORAGE_KEYS.funnelTabId, fresh)
    return fresh
  } catch {
    // Storage disabled: one id per page load still counts the visit.
    fallbackId ??= randomId()
    return fallbackId
  }
}
/** The source parameters the landing URL carried; fbclid only as present or not. */
function source() {
  const { subid1, subid2, fbclid } = storedAttribution()
  return {
    ...(subid1 ? { subid1 } : {}),
    ...(subid2 ? { subid2 } : {}),
    fbclid: fbclid !== '',
  }
}

/** The kind of page a path is, in the site's route table's terms. */
export function routeTypeOf(pathname: string): string {
  const [first = '', second] = pathname.split('/').filter(Boolean)
  if (first === '') return 'home'
  if (first === 'form' || first === 'call' || first === 'category') return first
  if (first === 'services' || second) return 'service'
  return 'page'
}

/** The JSON the server receives; exported for the tests. */
export function eventBody(event: FunnelEvent): string {
  const { type, service, vertical, step, field, answer } = event
  const routeType = event.routeType ?? routeTypeOf(window.location.pathname)
  const body: Record<string, unknown> = { type, routeType, tabId: tabId(), source: source() }
  if (service) body.service = service
  if (vertical) body.vertical = vertical
  if (step !== undefined) body.step = step
  if (type === 'disqualified') {
    body.field = field
    body.answer = answer
  }
  return JSON.stringify(body)
}

/** Send one event; never throws and never delays the page. Call it from effects and handlers only. */
export function sendFunnelEvent(event: FunnelEvent): void {
  try {
    const body = eventBody(event)
    // A string body goes as text/plain, which a beacon may send without a preflight.
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(EVENTS_URL, body)) return
    void fetch(EVENTS_URL, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => {})
  } catch {
    // Counting a visit is never worth breaking the page.
  }
}

/** The service a questionnaire is for, as the catalogue names it. */
export interface FunnelService {
  id: string
  vertical: string
}

/** One event about a service's questionnaire: step_complete, disqualified, submitted, call_click. */
export function sendServiceEvent(
  type: FunnelEventType,
  service: FunnelService,
  detail: Pick<FunnelEvent, 'step' | 'field' | 'answer'> = {},
): void {
  sendFunnelEvent({ type, service: service.id, vertical: service.vertical, ...detail })
}

/**
 * For a questionnaire on screen: a page view when it first shows (for its service), then a step
 * view each time a step shows. Effects only, so pages rendered at build time send nothing.
 */
export function useFunnelViews(service: FunnelService | null, step: number | undefined): void {
  const id = service?.id
  const vertical = service?.vertical
  useEffect(() => {
    if (id && vertical) sendServiceEvent('page_view', { id, vertical })
  }, [id, vertical])
  useEffect(() => {
    if (id && vertical && step !== undefined) sendServiceEvent('step_view', { id, vertical }, { step })
  }, [id, vertical, step])
}
