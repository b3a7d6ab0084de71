// The answers to a page's first API reads, which the server puts into the HTML as a
// non-executing JSON block (backend/servicematch/web/document.py), keyed by API path.
export const INITIAL_DATA_ID = 'initial-data'

export function readInitialData(): Record<string, unknown> {
  const element = document.getElementById(INITIAL_DATA_ID)
  if (!element?.textContent) return {}
  try {
    const data: unknown = JSON.parse(element.textContent)
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : {}
  } catch {
    // A page without usable data still works: the app fetches what it needs.
    return {}
  }
}
