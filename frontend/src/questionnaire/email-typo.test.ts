import { describe, expect, it } from 'vitest'
import { suggestEmail } from './email-typo'

describe('e-mail typo suggestion', () => {
  it('offers the common domain a typo is closest to', () => {
    expect(suggestEmail('maria.garcia@gmial.com')).toBe('maria.garcia@gmail.com')
    expect(suggestEmail('maria@gmail.con')).toBe('maria@gmail.com')
    expect(suggestEmail('maria@yaho.com')).toBe('maria@yahoo.com')
    expect(suggestEmail('maria@hotmial.com')).toBe('maria@hotmail.com')
    expect(suggestEmail('Maria@GMAL.COM')).toBe('Maria@gmail.com')
  })

  it('leaves correct and unrelated domains alone', () => {
    expect(suggestEmail('maria@gmail.com')).toBeNull()
    expect(suggestEmail('maria@example.com')).toBeNull()
    expect(suggestEmail('maria@utexas.edu')).toBeNull()
    expect(suggestEmail('maria')).toBeNull()
    expect(suggestEmail('@gmial.com')).toBeNull()
  })
})
