// How the portal words money and time: one place, so every page says them alike.

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** 4500 -> "$45.00"; a credit (negative) -> "-$10.00". */
export function formatMoney(cents: number): string {
  return dollars.format(cents / 100)
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

function hoursAndMinutes(ms: number): string {
  const hours = Math.floor(ms / HOUR)
  const minutes = Math.floor((ms % HOUR) / MINUTE)
  if (hours === 0) return `${minutes} min`
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`
}

/** "1 h 20 min left", "less than a minute left"; null once the time is up. */
export function timeLeft(expiresAt: string, now: number): string | null {
  const ms = Date.parse(expiresAt) - now
  if (!(ms > 0)) return null
  if (ms < MINUTE) return 'less than a minute left'
  return `${hoursAndMinutes(ms)} left`
}

/** How long ago: "just now", "12 min ago", "3 h ago", "2 days ago". */
export function age(createdAt: string, now: number): string {
  const ms = Math.max(0, now - Date.parse(createdAt))
  if (ms < MINUTE) return 'just now'
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min ago`
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h ago`
  const days = Math.floor(ms / DAY)
  return days === 1 ? '1 day ago' : `${days} days ago`
}

const dateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
const dateOnly = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })

/** "Nov 26, 2:05 PM" in the viewer's own time zone. */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso))
/** "Nov 26, 2026". */
export const formatDate = (iso: string) => dateOnly.format(new Date(iso))

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })

/** "2026-11" -> "November 2026"; anything else as it came. */
export function monthLabel(month: string): string {
  const found = /^(\d{4})-(\d{2})$/.exec(month)
  if (!found) return month
  return monthName.format(new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, 1)))
}

/** This month as the ledger names it ("2026-11"), in UTC as the server counts months. */
export function currentMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7)
}
