// How the buyer portal words money, times and lists: one place, so every page says them alike.

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** 18.75 -> "$18.75"; none -> "—". The API answers money in dollars. */
export function formatDollars(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '—' : dollars.format(amount)
}

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })
const dateOnly = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })

function parsed(iso: string | null | undefined): Date | null {
  if (!iso) return null
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/** "Nov 26, 2026, 2:05 PM" in the viewer's own time zone; "—" for none, as it came when unreadable. */
export function formatDateTime(iso: string | null | undefined): string {
  const date = parsed(iso)
  return date ? dateTime.format(date) : iso || '—'
}

/** "Nov 26, 2026". */
export function formatDate(iso: string | null | undefined): string {
  const date = parsed(iso)
  return date ? dateOnly.format(date) : iso || '—'
}

/** 142 -> "142 ms", 1530 -> "1.53 s"; none -> "—". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`
}

/** A list the server keeps ("hvac, roofing"), or what an empty one means. */
export function listText(values: string[], empty: string): string {
  return values.length ? values.join(', ') : empty
}

/** What a person typed as a list: commas, spaces or new lines between the values. */
export function parseList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((value) => value.trim()).filter(Boolean))]
}

/** A number field's text as the API takes it: empty is null (no limit); anything else a number. */
export function numberOrNull(text: string): number | null {
  const trimmed = text.trim()
  return trimmed === '' ? null : Number(trimmed)
}

export const numberText = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value))
