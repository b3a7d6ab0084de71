import { describe, expect, it } from 'vitest'
import { SUBMIT_FAILED, tooManyRequests } from './messages'

describe('the 429 message', () => {
  it('says what happened and when to try again, distinct from the generic error', () => {
    expect(tooManyRequests(540)).toBe('We have received too many requests from your connection. Please try again in 9 minutes.')
    expect(tooManyRequests(30)).toBe('We have received too many requests from your connection. Please try again in 1 minute.')
    expect(tooManyRequests(null)).toBe('We have received too many requests from your connection. Please try again in a few minutes.')
    expect(tooManyRequests(600)).not.toBe(SUBMIT_FAILED)
  })
})
