// A request waiting in a queue for an admin's decision (a buyer's return, a provider's credit): its
// card keeps what the last answer said; its buttons and note's form are review-actions.tsx.
import { useState } from 'react'
import { request } from './api'
import { useCardAction } from './directory-parts'

export type Deciding = 'approve' | 'deny' | null

/** How long a request has waited, in words: "3 h", "2 days". */
export function waited(createdAt: string, now = Date.now()): string {
  const hours = Math.max(0, Math.floor((now - Date.parse(createdAt)) / 3_600_000))
  if (hours < 1) return 'under an hour'
  if (hours < 48) return `${hours} h`
  return `${Math.floor(hours / 24)} days`
}

export interface Review<T> {
  item: T
  notice: string | null
  error: string | null
  busy: boolean
  deciding: Deciding
  setDeciding: (deciding: Deciding) => void
  note: string
  setNote: (note: string) => void
  decide: () => void
}

/** One request of the queue at `/<queue>/<id>`; a decision updates it in place, so its outcome stays
 * in sight until the list is reloaded. `said` words the decision's notice. */
export function useReview<T extends { id: string }>(listed: T, queue: string,
  said: (decided: T, approving: boolean) => string): Review<T> {
  const [item, setItem] = useState(listed)
  const { run, notice, error, busy } = useCardAction()
  const [deciding, setDeciding] = useState<Deciding>(null)
  const [note, setNote] = useState('')

  const decide = () => {
    const approving = deciding === 'approve'
    void run(() => request<T>('POST', `/${queue}/${encodeURIComponent(item.id)}/${approving ? 'approve' : 'deny'}`,
      approving ? (note.trim() ? { note } : {}) : { note }), (decided) => {
      setItem(decided)
      setDeciding(null)
      return [true, said(decided, approving)]
    })
  }
  return { item, notice, error, busy, deciding, setDeciding, note, setNote, decide }
}
