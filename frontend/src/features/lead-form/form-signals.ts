// What the lead form reports about how it was filled, for the server's quality gate
// (docs/quality.md): seconds from the first step to submitting, the tab id the page's funnel
// events carry (so the server can hold the report against its own clock), and the honeypot's
// value. The visitor never sees any of it, and none of it is personal.
import { tabId } from '../../lib/funnel-events'

export interface FormSignals {
  secondsOnForm: number
  tabId: string
  honeypot: string
}

/** The seconds since `startedAt` (a performance.now() reading), to a tenth, with the tab id and the
 * honeypot's value as the visitor's browser holds them. */
export function formSignals(startedAt: number, honeypot: string, now: number = performance.now()): FormSignals {
  return { secondsOnForm: Math.max(0, Math.round((now - startedAt) / 100) / 10), tabId: tabId(), honeypot }
}
