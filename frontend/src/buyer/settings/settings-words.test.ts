import { describe, expect, it } from 'vitest'
import { actionText, detailText } from './audit-detail'
import { testLine } from './url-tests'

describe('what the settings page says', () => {
  it('words each URL test: passed or failed, its status, time and error', () => {
    expect(testLine({ kind: 'ping', url: 'https://x.example/ping', ok: true, httpStatus: 200, durationMs: 85, error: null }))
      .toBe('Ping test passed: HTTP 200 in 85 ms')
    expect(testLine({ kind: 'post', url: 'https://x.example/post', ok: false, httpStatus: 500, durationMs: 1200, error: 'oops' }))
      .toBe('Post test failed: HTTP 500 in 1.20 s (oops)')
    expect(testLine({ kind: 'post', url: 'https://x.example/post', ok: false, httpStatus: null, durationMs: null, error: 'timed out' }))
      .toBe('Post test failed: no answer (timed out)')
  })

  it('words an audit entry: the action, and each field from its old value to its new one', () => {
    expect(actionText('buyer.settings.change')).toBe('Settings changed')
    expect(actionText('buyer.self.pause')).toBe('Paused')
    expect(actionText('buyer.self.resume')).toBe('Resumed')
    expect(actionText('buyer.pause')).toBe('Buying paused by ServiceMatch')
    expect(actionText('buyer.resume')).toBe('Buying resumed by ServiceMatch')
    expect(actionText('buyer.something.new')).toBe('buyer.something.new')
    expect(detailText({ dailyCap: [50, 75], states: [['TX'], ['TX', 'OK']], hours: ['Mon-Fri 08:00-18:00 America/Chicago', null] }))
      .toBe('Daily cap: 50 → 75; States: TX → TX, OK; Buying hours: Mon-Fri 08:00-18:00 America/Chicago → none')
    expect(detailText({ name: 'CRM import', prefix: 'smk_4f9a', other: true })).toBe('Name: CRM import; Key: smk_4f9a; other: true')
    expect(detailText({})).toBe('')
    expect(detailText(null)).toBe('')
  })
})
