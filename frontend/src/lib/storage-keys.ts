// Every browser-storage key of the site, in one place (spec section 3, "Browser storage").
export const STORAGE_KEYS = {
  // The address chosen on the home page: {address1, city, state, zip}.
  address: 'serviceMatchAddress',
  // Attribution captured from the landing URL: {subid1, subid2, fbclid, externalid}.
  urlParams: 'serviceMatchUrlParams',
  // Base fields passed in the URL, used to prefill the lead form.
  formBaseFields: 'formBaseFields',
  // sessionStorage: a random id that groups one tab's funnel events (lib/funnel-events.ts).
  funnelTabId: 'serviceMatchFunnelTab',
  // sessionStorage: what /thank-you and /call-thanks redraw after a reload (pages/thanks-state.ts): the
  // reference, request id and status token the submit answer gave, and the service's own texts.
  thankYou: 'serviceMatchThankYou',
  callThanks: 'serviceMatchCallThanks',
} as const

export interface StoredAddress {
  address1: string
  city: string
  state: string
  zip: string
}

export function readJson<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key)
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    // Storage can be full, disabled (private mode) or hold a value from an older release.
    return null
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value))
  } catch {
    // Losing a prefill is better than breaking the page.
  }
}

export function removeKey(key: string): void {
  try {
    window.localStorage.removeItem(key)
  } catch {
    // See writeJson.
  }
}
