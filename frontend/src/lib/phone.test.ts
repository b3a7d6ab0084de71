import { describe, expect, it } from 'vitest'
import { formatPhone } from './phone'

describe('formatPhone', () => {
  it('groups a US number, and leaves anything else alone', () => {
    expect(formatPhone('5125550142')).toBe('(512) 555-0142')
    expect(formatPhone('+1 512 555 0142')).toBe('(512) 555-0142')
    expect(formatPhone('(512) 555-0142')).toBe('(512) 555-0142')
    expect(formatPhone('555-0142')).toBe('555-0142')
  })

  it('shows a masked number as it came, and none as a dash', () => {
    expect(formatPhone('***-***-0142')).toBe('***-***-0142')
    expect(formatPhone('(***) ***-0142')).toBe('(***) ***-0142')
    expect(formatPhone('')).toBe('—')
    expect(formatPhone(null)).toBe('—')
    expect(formatPhone(undefined)).toBe('—')
  })
})
