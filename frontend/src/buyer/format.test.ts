import { describe, expect, it } from 'vitest'
import { formatDollars, formatDuration, listText, numberOrNull, numberText, parseList } from './format'

describe('the portal’s words for numbers', () => {
  it('says dollars as money, and nothing as a dash', () => {
    expect(formatDollars(18.75)).toBe('$18.75')
    expect(formatDollars(1234.5)).toBe('$1,234.50')
    expect(formatDollars(0)).toBe('$0.00')
    expect(formatDollars(null)).toBe('—')
  })

  it('says durations in milliseconds, seconds past one', () => {
    expect(formatDuration(85)).toBe('85 ms')
    expect(formatDuration(1530)).toBe('1.53 s')
    expect(formatDuration(null)).toBe('—')
  })
})

describe('lists and numbers as typed', () => {
  it('reads a list separated by commas, spaces or lines, once each', () => {
    expect(parseList(' 78701, 78702\n78703 78701 ,')).toEqual(['78701', '78702', '78703'])
    expect(parseList('  ')).toEqual([])
    expect(listText([], 'every state')).toBe('every state')
    expect(listText(['TX', 'OK'], 'every state')).toBe('TX, OK')
  })

  it('takes an empty number field as no limit', () => {
    expect(numberOrNull('')).toBeNull()
    expect(numberOrNull(' 40 ')).toBe(40)
    expect(Number.isNaN(numberOrNull('forty'))).toBe(true)
    expect(numberText(null)).toBe('')
    expect(numberText(12.5)).toBe('12.5')
  })
})
