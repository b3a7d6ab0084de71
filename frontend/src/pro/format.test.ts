import { describe, expect, it } from 'vitest'
import { age, currentMonth, formatMoney, monthLabel, timeLeft } from './format'

const NOW = Date.parse('2026-11-26T15:00:00Z')
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString()

describe('formatMoney', () => {
  it('words cents as dollars, credits with a minus', () => {
    expect(formatMoney(4500)).toBe('$45.00')
    expect(formatMoney(123456)).toBe('$1,234.56')
    expect(formatMoney(0)).toBe('$0.00')
    expect(formatMoney(-1050)).toBe('-$10.50')
  })
})

describe('timeLeft', () => {
  it('counts hours and minutes down to the end, then says nothing', () => {
    expect(timeLeft(at(120), NOW)).toBe('2 h left')
    expect(timeLeft(at(80.5), NOW)).toBe('1 h 20 min left')
    expect(timeLeft(at(12), NOW)).toBe('12 min left')
    expect(timeLeft(at(0.5), NOW)).toBe('less than a minute left')
    expect(timeLeft(at(0), NOW)).toBeNull()
    expect(timeLeft(at(-5), NOW)).toBeNull()
    expect(timeLeft('not a date', NOW)).toBeNull()
  })
})

describe('age', () => {
  it('says how long ago, never in the future', () => {
    expect(age(at(0), NOW)).toBe('just now')
    expect(age(at(2), NOW)).toBe('just now')
    expect(age(at(-12), NOW)).toBe('12 min ago')
    expect(age(at(-185), NOW)).toBe('3 h ago')
    expect(age(at(-60 * 24), NOW)).toBe('1 day ago')
    expect(age(at(-60 * 24 * 3), NOW)).toBe('3 days ago')
  })
})

describe('months', () => {
  it('names a ledger month and finds this one in UTC', () => {
    expect(monthLabel('2026-11')).toBe('November 2026')
    expect(monthLabel('2027-01')).toBe('January 2027')
    expect(monthLabel('soon')).toBe('soon')
    expect(currentMonth(Date.parse('2026-11-30T23:30:00Z'))).toBe('2026-11')
    expect(currentMonth(Date.parse('2026-12-01T00:00:00Z'))).toBe('2026-12')
  })
})
