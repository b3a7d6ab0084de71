import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConsoleError, query, request, setCsrfToken, setSignedOutHandler } from './api'

function answer(status: number, body: unknown = {}, headers: Record<string, string> = {}) {
  return vi.fn(async (_url: string, _init: RequestInit) =>
    new Response(status === 204 ? null : JSON.stringify(body), { status, headers }))
}

afterEach(() => {
  vi.unstubAllGlobals()
  setCsrfToken('')
  setSignedOutHandler(() => {})
})

const headersOf = (spy: ReturnType<typeof answer>) => spy.mock.calls[0][1].headers as Record<string, string>

describe('request', () => {
  it('sends the CSRF token with every change and never with a read', async () => {
    setCsrfToken('token-1')
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const spy = answer(200, { ok: true })
      vi.stubGlobal('fetch', spy)
      await request(method, '/providers/1')
      expect(headersOf(spy)['X-CSRF-Token']).toBe('token-1')
      expect(spy.mock.calls[0][0]).toBe('/api/console/providers/1')
    }
    const read = answer(200, { items: [] })
    vi.stubGlobal('fetch', read)
    await request('GET', '/leads')
    expect(headersOf(read)).not.toHaveProperty('X-CSRF-Token')
  })

  it("gives the server's error and its field messages", async () => {
    vi.stubGlobal('fetch', answer(422, { error: 'The provider is not valid.', fields: { services: 'unknown' } }))
    const failure = await request('POST', '/providers', {}).catch((e: ConsoleError) => e)
    expect(failure).toBeInstanceOf(ConsoleError)
    expect(failure).toMatchObject({ status: 422, message: 'The provider is not valid.', fields: { services: 'unknown' } })
  })

  it('says when to try again after a 429 without a message', async () => {
    vi.stubGlobal('fetch', answer(429, {}, { 'Retry-After': '30' }))
    await expect(request('POST', '/session', {})).rejects.toThrow('Try again in 30 seconds.')
  })

  it('signs out on a 401 from a signed-in call, not from the sign-in itself', async () => {
    const signedOut = vi.fn()
    setSignedOutHandler(signedOut)
    vi.stubGlobal('fetch', answer(401, { error: 'Wrong e-mail or password.' }))
    await expect(request('POST', '/session', {})).rejects.toThrow('Wrong e-mail or password.')
    expect(signedOut).not.toHaveBeenCalled()
    await expect(request('GET', '/leads')).rejects.toThrow()
    expect(signedOut).toHaveBeenCalledOnce()
  })

  it('turns a network failure into a sentence', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch') }))
    await expect(request('GET', '/audit')).rejects.toThrow('The server could not be reached.')
  })
})

describe('query', () => {
  it('leaves out empty filters', () => {
    expect(query({ q: 'a b', vertical: '', state: null, service: 'hvac' })).toBe('?q=a+b&service=hvac')
    expect(query({ q: '' })).toBe('')
  })
})
