import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSessionClient } from './session-client'

afterEach(() => vi.unstubAllGlobals())

describe('createSessionClient', () => {
  it('calls its own prefix, and a refused sign-in by any of its sign-in paths is no sign-out', async () => {
    const client = createSessionClient('/api/pro', ['/session', '/password'])
    const signedOut = vi.fn()
    client.setSignedOutHandler(signedOut)
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ error: 'No.' }), { status: 401 }))
    vi.stubGlobal('fetch', fetch)
    await expect(client.request('POST', '/password', {})).rejects.toThrow('No.')
    await expect(client.request('POST', '/session', {})).rejects.toThrow('No.')
    expect(signedOut).not.toHaveBeenCalled()
    await expect(client.request('GET', '/providers/1')).rejects.toMatchObject({ status: 401 })
    expect(signedOut).toHaveBeenCalledOnce()
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/pro/password', '/api/pro/session', '/api/pro/providers/1'])
  })

  it("keeps each client's CSRF token to itself", async () => {
    const portal = createSessionClient('/api/pro')
    const console_ = createSessionClient('/api/console')
    portal.setCsrfToken('portal-token')
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 204 }))
    vi.stubGlobal('fetch', fetch)
    await console_.request('POST', '/x')
    await portal.request('POST', '/x')
    const sent = fetch.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['X-CSRF-Token'])
    expect(sent).toEqual(['', 'portal-token'])
  })
})
