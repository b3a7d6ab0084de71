import { describe, expect, it } from 'vitest'
import { ageOn, formatPhone, joinDate, nationalNumber, phoneDigits, splitDate, yearChoices } from './formats'

describe('phone input', () => {
  it('keeps at most 11 digits, and 11 only with a leading 1', () => {
    expect(phoneDigits('(512) 555-0142 ext 9')).toBe('5125550142')
    expect(phoneDigits('+1 (512) 555-0142 99')).toBe('15125550142')
  })

  it('shows +1 for 11 digits and sends the national number', () => {
    expect(formatPhone('15125550142')).toBe('+1 (512) 555-0142')
    expect(formatPhone('5125550142')).toBe('(512) 555-0142')
    expect(formatPhone('51255')).toBe('(512) 55')
    expect(formatPhone('512')).toBe('512')
    expect(formatPhone('1')).toBe('+1')
    expect(formatPhone('512555')).toBe('(512) 555')
    expect(nationalNumber('15125550142')).toBe('5125550142')
  })
})

describe('date fields', () => {
  it('store yyyy-mm-dd and keep partial choices', () => {
    expect(joinDate({ year: '1960', month: '04', day: '02' })).toBe('1960-04-02')
    expect(splitDate(joinDate({ year: '', month: '04', day: '' }))).toEqual({ year: '', month: '04', day: '' })
    expect(joinDate({ year: '', month: '', day: '' })).toBe('')
  })

  it('offer this year and the 100 before it', () => {
    const years = yearChoices(new Date(2026, 0, 1))
    expect(years).toHaveLength(101)
    expect(years[0]).toBe('2026')
    expect(years.at(-1)).toBe('1926')
  })

  it('count whole years of age', () => {
    const today = new Date(2026, 5, 15)
    expect(ageOn('1976-06-15', today)).toBe(50)
    expect(ageOn('1976-06-16', today)).toBe(49)
  })
})
