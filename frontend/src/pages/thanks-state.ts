// What the two thank-you pages (/thank-you, /call-thanks) need to redraw after a reload: the
// navigation's state when there is one (kept in sessionStorage for this tab), the kept copy
// otherwise. Only what the page shows or the submit answer gave (reference, request id, status
// token, the service's texts and number): no personal data.
import { useLocation } from 'react-router'

function readKept<T>(key: string): T | null {
  try {
    const raw = window.sessionStorage.getItem(key)
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null // storage disabled, or a value from an older release
  }
}

function keep(key: string, value: unknown): void {
  try {
    window.sessionStorage.setItem(key, JSON.stringify(value))
  } catch {
    // Without storage, a reload goes home: the page itself still shows.
  }
}

/** The page's state: the navigation's (kept for a reload) or, after a reload, the kept one. `usable`
 * tells a state the page can draw from one it cannot (opened without a request). */
export function useThanksState<T extends object>(key: string, usable: (state: Partial<T>) => state is T): T | null {
  const given = (useLocation().state ?? null) as Partial<T> | null
  if (given && usable(given)) {
    if (typeof window !== 'undefined') keep(key, given)
    return given
  }
  if (typeof window === 'undefined') return null
  const kept = readKept<Partial<T>>(key)
  return kept && usable(kept) ? kept : null
}
