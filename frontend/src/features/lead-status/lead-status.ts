// What became of a submitted request, for the thank-you page: GET /api/leads/{requestId}/status
// with the submit answer's status token in a header (docs/lead-payload.md).
import { useEffect, useState } from 'react'
import type { LeadStatus } from '../../lib/types'

export const STATUS_POLL_MS = 500
// After the 4 s loader, the page waits at most this much longer for routing to finish.
export const STATUS_GRACE_MS = 4000

/** The lead's status, or null when it cannot be read (no such request, wrong token, offline, busy). */
export async function fetchLeadStatus(requestId: string, token: string): Promise<LeadStatus | null> {
  try {
    const response = await fetch(`/api/leads/${encodeURIComponent(requestId)}/status`, {
      headers: { Accept: 'application/json', 'X-Status-Token': token },
      cache: 'no-store',
    })
    return response.ok ? ((await response.json()) as LeadStatus) : null
  } catch {
    return null
  }
}

/** Reads the status every STATUS_POLL_MS until routing has finished or `forMs` have passed; the
 * latest status read (null until one is). Without a request id and token it reads nothing. */
export function useLeadStatus(requestId: string | undefined, token: string | undefined, forMs: number): LeadStatus | null {
  const [status, setStatus] = useState<LeadStatus | null>(null)
  useEffect(() => {
    if (!requestId || !token) return
    const until = Date.now() + forMs
    let timer = 0
    let live = true
    const read = async () => {
      const next = await fetchLeadStatus(requestId, token)
      if (!live) return
      if (next) setStatus(next)
      if (!next?.finished && Date.now() < until) timer = window.setTimeout(read, STATUS_POLL_MS)
    }
    void read()
    return () => {
      live = false
      window.clearTimeout(timer)
    }
  }, [requestId, token, forMs])
  return status
}

/** What the page can truthfully say: who received the request (and how many pros may still take
 * it on), that only pros weighing an offer have it so far, that nobody does, that it is being
 * checked before it is passed on (held by the quality gate: nobody has it), that it was checked
 * and passed on to nobody, or (routing not finished in time, or its status unreadable) only that
 * the request is saved. */
export type Outcome =
  | { kind: 'received'; companies: string[]; ratings: Record<string, { average: number; count: number }>; offered: number }
  | { kind: 'offered'; offered: number }
  | { kind: 'nobody' }
  | { kind: 'reviewing' }
  | { kind: 'declined' }
  | { kind: 'saved' }

/** The review's outcomes in plain words: no company named, nothing promised. */
export const REVIEW_WORDS = {
  reviewing: 'We are checking your request before we pass it on. No company has your contact details.',
  declined: 'We checked your request and did not pass it on. No company has your contact details.',
} as const

export function outcomeOf(status: LeadStatus | null): Outcome {
  if (!status?.finished) return { kind: 'saved' }
  // Consumers' ratings of the companies named, for those rated at least once.
  const ratings = Object.fromEntries(
    (status.ratings ?? []).filter((rating) => rating.count > 0).map(({ company, average, count }) => [company, { average, count }]),
  )
  const offered = status.offered ?? 0
  if (status.companies.length) return { kind: 'received', companies: status.companies, ratings, offered }
  if (status.review === 'reviewing' || status.review === 'declined') return { kind: status.review }
  return offered ? { kind: 'offered', offered } : { kind: 'nobody' }
}
