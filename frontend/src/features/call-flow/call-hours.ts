// When the call centre of a call flow answers (the service's callHours, in its own time zone):
// the number to call is shown only then; otherwise the visitor is told when to call.
import { useEffect, useState } from 'react'
import type { ServiceConfig } from '../../lib/types'

export type CallHours = NonNullable<ServiceConfig['callHours']>

export type CallCentre =
  | { open: true; closes: string }
  | { open: false; opens: string; day: 'today' | 'tomorrow' }

const toMinutes = (clock: string) => {
  const [hours, minutes] = clock.split(':').map(Number)
  return hours * 60 + minutes
}

/** "18:00" -> "6 PM", "09:30" -> "9:30 AM". */
export function clockLabel(clock: string): string {
  const [hours, minutes] = clock.split(':').map(Number)
  const twelve = hours % 12 === 0 ? 12 : hours % 12
  return `${twelve}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''} ${hours < 12 ? 'AM' : 'PM'}`
}

/** Minutes since midnight at `now` in a time zone. */
function minutesInZone(timeZone: string, now: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(now)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return part('hour') * 60 + part('minute')
}

/** Open or closed at `now`, with the closing time or the next opening ("9 AM ET tomorrow"). */
export function callCentreAt(hours: CallHours, now: Date): CallCentre {
  const minute = minutesInZone(hours.timeZone, now)
  const opens = `${clockLabel(hours.opens)} ${hours.zoneLabel}`
  if (minute < toMinutes(hours.opens)) return { open: false, opens, day: 'today' }
  if (minute >= toMinutes(hours.closes)) return { open: false, opens, day: 'tomorrow' }
  return { open: true, closes: `${clockLabel(hours.closes)} ${hours.zoneLabel}` }
}

/** The hours in words: "from 9 AM to 6 PM ET, every day". */
export function hoursInWords(hours: CallHours): string {
  return `from ${clockLabel(hours.opens)} to ${clockLabel(hours.closes)} ${hours.zoneLabel}, every day`
}

// Checked again each minute, so a page left open shows the number when the lines open.
const RECHECK_MS = 60_000

/** The call centre's state in this browser's present; null until the page runs in the browser
 * (a page rendered ahead of time cannot know the hour it will be read at). */
export function useCallCentre(hours: CallHours | null | undefined): CallCentre | null {
  const [now, setNow] = useState<Date | null>(null)
  useEffect(() => {
    setNow(new Date())
    const timer = window.setInterval(() => setNow(new Date()), RECHECK_MS)
    return () => window.clearInterval(timer)
  }, [])
  return hours && now ? callCentreAt(hours, now) : null
}
