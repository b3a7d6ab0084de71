import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderHook } from '@testing-library/react'
import { EVENTS_URL, eventBody, routeTypeOf, sendFunnelEvent, tabId, useFunnelViews } from './funnel-events'
import { STORAGE_KEYS } from './storage-keys'

beforeEach(() => {
  window.sessionStorage.clear()
  window.localStorage.clear()
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('tabId', () => {
  it('is random, kept for the tab, and in the shape the server accepts', () => {
    const first = tabId()
    expect(first).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
    expect(tabId()).toBe(first)
    expect(window.sessionStorage.getItem(STORAGE_KEYS.funnelTabId)).toBe(first)
    window.sessionStorage.clear()
    expect(tabId()).not.toBe(first)
  })
})

describe('eventBody', () => {
  it('carries the source parameters but only whether fbclid was there', () => {
    window.localStorage.setItem(STORAGE_KEYS.urlParams,
      JSON.stringify({ subid1: 'spring', subid2: 'ad-7', fbclid: 'IwAR-secret', externalid: 'x1' }))
    const body = JSON.parse(eventBody({ type: 'step_view', routeType: 'form', service: 'hvac', vertical: 'services', step: 2 }))
    expect(body).toEqual({
      type: 'step_view', routeType: 'form', service: 'hvac', vertical: 'services', step: 2,
      tabId: tabId(), source: { subid1: 'spring', subid2: 'ad-7', fbclid: true },
    })
    expect(JSON.stringify(body)).not.toContain('IwAR-secret')
    expect(JSON.stringify(body)).not.toContain('x1')
  })

  it('sends a field and answer only with a disqualification', () => {
    const answered = JSON.parse(eventBody({ type: 'step_complete', routeType: 'form', service: 'hvac', step: 1,
      field: 'cq1', answer: 'Repair' }))
    expect(answered).not.toHaveProperty('answer')
    expect(answered).not.toHaveProperty('field')
    const disqualified = JSON.parse(eventBody({ type: 'disqualified', routeType: 'form', service: 'roofing', step: 1,
      field: 'homeowner', answer: 'No, I rent' }))
    expect(disqualified).toMatchObject({ field: 'homeowner', answer: 'No, I rent', source: { fbclid: false } })
  })

  it('stays under the server limit of 4 KB', () => {
    expect(new Blob([eventBody({ type: 'page_view', routeType: 'service', service: 'x'.repeat(64) })]).size).toBeLessThan(4096)
  })
})

describe('sendFunnelEvent', () => {
  it('sends a beacon to the site itself', () => {
    const beacon = vi.fn(() => true)
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: beacon })
    const fetchSpy = vi.fn()
    vi.stubGlobal('fetch', fetchSpy)
    sendFunnelEvent({ type: 'page_view', routeType: 'home' })
    expect(beacon).toHaveBeenCalledWith(EVENTS_URL, expect.stringContaining('"type":"page_view"'))
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it('falls back to a keepalive fetch when the beacon is refused, and never throws', () => {
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: () => false })
    const fetchSpy = vi.fn(() => Promise.reject(new Error('offline')))
    vi.stubGlobal('fetch', fetchSpy)
    expect(() => sendFunnelEvent({ type: 'call_click', routeType: 'call', service: 'final-expense-ib' })).not.toThrow()
    expect(fetchSpy).toHaveBeenCalledWith(EVENTS_URL, expect.objectContaining({ method: 'POST', keepalive: true }))
  })
})

describe('routeTypeOf', () => {
  it.each([
    ['/', 'home'], ['/form/hvac', 'form'], ['/call/final-expense-ib/tx', 'call'], ['/category/legal', 'category'],
    ['/services/roofing', 'service'], ['/legal/auto-accident/tx', 'service'], ['/about-us', 'page'],
  ])('%s is a %s page', (path, kind) => {
    expect(routeTypeOf(path)).toBe(kind)
  })
})

describe('useFunnelViews', () => {
  it('sends one page view, then a step view per step shown', () => {
    const beacon = vi.fn((_url: string, _body: string) => true)
    vi.stubGlobal('navigator', { ...navigator, sendBeacon: beacon })
    const service = { id: 'hvac', vertical: 'services' }
    const { rerender } = renderHook(({ step }) => useFunnelViews(service, step), { initialProps: { step: 2 } })
    rerender({ step: 3 })
    rerender({ step: 3 })
    const sent = beacon.mock.calls.map(([, body]) => JSON.parse(body))
    expect(sent.map((e) => [e.type, e.step])).toEqual([['page_view', undefined], ['step_view', 2], ['step_view', 3]])
    expect(sent[0]).toMatchObject({ service: 'hvac', vertical: 'services' })
  })
})
