import { afterEach, describe, expect, it, vi } from 'vitest'
import { startRequest, stopNow, verifyRequest } from './privacy-api'

function answer(status: number, body: unknown) {
  return vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))
}

describe('privacy API calls', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('posts JSON and hands back the answer', async () => {
    const fetchMock = answer(202, { requestId: 'r1', message: 'We sent a 6-digit code to a@example.com.' })
    vi.stubGlobal('fetch', fetchMock)
    const result = await startRequest({ kind: 'access', email: 'a@example.com' })
    expect(result).toEqual({ ok: true, data: { requestId: 'r1', message: 'We sent a 6-digit code to a@example.com.' } })
    const [path, init] = fetchMock.mock.calls[0]
    expect(path).toBe('/api/privacy/requests')
    expect(JSON.parse(init.body)).toEqual({ kind: 'access', email: 'a@example.com' })
  })

  it("keeps the server's sentence and field messages on a refusal", async () => {
    vi.stubGlobal('fetch', answer(400, { error: 'That code is not right.', fields: { code: 'That code is not right.' } }))
    const result = await verifyRequest('r/1', '123456')
    expect(result).toEqual({ ok: false, failure: { status: 400, error: 'That code is not right.', fields: { code: 'That code is not right.' } } })
  })

  it('says the server could not be reached when the network fails', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    const result = await stopNow('token')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.failure.error).toMatch(/could not reach the server/)
  })

  it('gives a sentence even when the answer is not JSON', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })))
    const result = await stopNow('token')
    if (!result.ok) expect(result.failure.error).toBe('Something went wrong (502). Please try again.')
  })
})
