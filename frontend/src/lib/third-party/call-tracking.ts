// Call-tracking script (spec section 2, /call): loaded by the service's tracking id.
import { loadScript } from './load-script'

/** The URL setting may hold {jsid}; without it the id is appended as the last path segment. */
export function callTrackingUrl(template: string, jsid: string): string {
  const id = encodeURIComponent(jsid)
  return template.includes('{jsid}') ? template.replaceAll('{jsid}', id) : `${template.replace(/\/$/, '')}/${id}`
}

export function loadCallTracking(template: string, jsid: string): void {
  if (!template || !jsid) return
  loadScript(callTrackingUrl(template, jsid)).catch((error) => console.warn(error))
}
