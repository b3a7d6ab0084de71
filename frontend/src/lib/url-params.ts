// Attribution and prefill carried in the landing URL (spec section 4), kept in browser storage.
import { readJson, STORAGE_KEYS, writeJson } from './storage-keys'

export const ATTRIBUTION_KEYS = ['subid1', 'subid2', 'fbclid', 'externalid'] as const
export const BASE_FIELD_KEYS = [
  'first', 'last', 'email', 'phone', 'address1', 'address2', 'city', 'state', 'zip',
] as const

// Personal data a link may carry: taken out of the address bar once read, so no history entry,
// referrer, analytics hit, shared link or stored page URL (click.domain_url) repeats it. The
// server strips the same names from page URLs it is sent (intake/schemas.py PERSONAL_URL_PARAMETERS).
export const PERSONAL_PARAMETERS: ReadonlySet<string> = new Set([
  ...BASE_FIELD_KEYS, 'name', 'firstname', 'first_name', 'lastname', 'last_name', 'fullname', 'full_name',
  'email_address', 'phone_number', 'tel', 'mobile', 'address', 'street', 'zipcode', 'zip_code',
  'postal_code', 'dob', 'date_of_birth', 'birthdate',
])

export type Attribution = Record<(typeof ATTRIBUTION_KEYS)[number], string>
export type BaseFieldPrefill = Partial<Record<(typeof BASE_FIELD_KEYS)[number], string>>

// Keep what an earlier landing stored and overwrite only what this URL carries, so moving
// between pages without parameters never loses the visitor's attribution.
function storePresent(key: string, params: URLSearchParams, names: readonly string[]): void {
  const present = names.filter((name) => (params.get(name) ?? '').trim() !== '')
  if (present.length === 0) return
  const stored = readJson<Record<string, string>>(key) ?? {}
  for (const name of present) stored[name] = params.get(name)!.trim()
  writeJson(key, stored)
}

/** Store subid1/subid2/fbclid/externalid and base-field prefills found in a query string, then
 * take the personal ones out of the address bar. */
export function captureUrlParams(search: string): void {
  const params = new URLSearchParams(search)
  storePresent(STORAGE_KEYS.urlParams, params, ATTRIBUTION_KEYS)
  storePresent(STORAGE_KEYS.formBaseFields, params, BASE_FIELD_KEYS)
  removePersonalParameters()
}

/** Replace the current history entry with its URL minus personal parameters (attribution stays).
 * The router's own entry state is kept, so back and forward still work as before. */
export function removePersonalParameters(): void {
  if (typeof window === 'undefined') return
  const url = new URL(window.location.href)
  const personal = [...url.searchParams.keys()].filter((key) => PERSONAL_PARAMETERS.has(key.toLowerCase()))
  if (personal.length === 0) return
  for (const key of personal) url.searchParams.delete(key)
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
}

export function storedAttribution(): Attribution {
  const stored = readJson<Partial<Attribution>>(STORAGE_KEYS.urlParams) ?? {}
  return {
    subid1: stored.subid1 ?? '',
    subid2: stored.subid2 ?? '',
    fbclid: stored.fbclid ?? '',
    externalid: stored.externalid ?? '',
  }
}

export function storedBaseFields(): BaseFieldPrefill {
  const stored = readJson<Record<string, unknown>>(STORAGE_KEYS.formBaseFields) ?? {}
  const prefill: BaseFieldPrefill = {}
  for (const key of BASE_FIELD_KEYS) {
    if (typeof stored[key] === 'string') prefill[key] = stored[key]
  }
  return prefill
}
