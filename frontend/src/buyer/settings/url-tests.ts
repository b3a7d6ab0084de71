import { formatDuration } from '../format'
import type { UrlTest } from '../types'

/** "Ping test passed: HTTP 200 in 85 ms"; "Post test failed: HTTP 500 (the answer's words)". */
export function testLine(test: UrlTest): string {
  const what = `${test.kind === 'ping' ? 'Ping' : 'Post'} test ${test.ok ? 'passed' : 'failed'}`
  const status = test.httpStatus === null ? 'no answer' : `HTTP ${test.httpStatus}`
  const time = test.durationMs === null ? '' : ` in ${formatDuration(test.durationMs)}`
  return `${what}: ${status}${time}${test.error ? ` (${test.error})` : ''}`
}
