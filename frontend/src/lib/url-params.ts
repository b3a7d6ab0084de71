// Attribution and prefill carried in the landing URL (spec section 4), kept in browser storage.
import { readJson, STORAGE_KEYS, writeJson } from './storage-keys'

export const ATTRIBUTION_KEYS = ['subid1', 'subid2', 'fbclid', 'externalid'] as const
export const BASE_FIELD_KEYS = [
  'first', 'last', 'email', 'phone', 'address1', 'address2', 'city', 'state', 'zip',
] as const

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

/** Store subid1/subid2/fbclid/externalid and base-field prefills found in a query string. */
export function captureUrlParams(search: string): void {
  const params = new URLSearchParams(search)
  storePresent(STORAGE_KEYS.urlParams, params, ATTRIBUTION_KEYS)
  storePresent(STORAGE_KEYS.formBaseFields, params, BASE_FIELD_KEYS)
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
