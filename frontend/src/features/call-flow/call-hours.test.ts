import { describe, expect, it } from 'vitest'
import { callCentreAt, clockLabel, hoursInWords, type CallHours } from './call-hours'

const HOURS: CallHours = { timeZone: 'America/New_York', zoneLabel: 'ET', opens: '09:00', closes: '18:00' }

describe('call centre hours', () => {
  it('reads the clock in the call centre’s zone, winter and summer', () => {
    // 17:59 in New York is 22:59 UTC in January (EST) and 21:59 UTC in July (EDT).
    expect(callCentreAt(HOURS, new Date('2026-01-15T22:59:00Z'))).toEqual({ open: true, closes: '6 PM ET' })
    expect(callCentreAt(HOURS, new Date('2026-07-15T21:59:00Z'))).toEqual({ open: true, closes: '6 PM ET' })
    expect(callCentreAt(HOURS, new Date('2026-07-15T22:00:00Z'))).toEqual({ open: false, opens: '9 AM ET', day: 'tomorrow' })
  })

  it('says today before opening and tomorrow after closing', () => {
    expect(callCentreAt(HOURS, new Date('2026-01-15T13:59:00Z'))).toEqual({ open: false, opens: '9 AM ET', day: 'today' })
    expect(callCentreAt(HOURS, new Date('2026-01-15T14:00:00Z')).open).toBe(true)
    expect(callCentreAt(HOURS, new Date('2026-01-16T03:00:00Z'))).toEqual({ open: false, opens: '9 AM ET', day: 'tomorrow' })
  })

  it('writes times as visitors read them', () => {
    expect(clockLabel('00:00')).toBe('12 AM')
    expect(clockLabel('09:30')).toBe('9:30 AM')
    expect(clockLabel('12:00')).toBe('12 PM')
    expect(clockLabel('18:00')).toBe('6 PM')
    expect(hoursInWords(HOURS)).toBe('from 9 AM to 6 PM ET, every day')
  })
})
