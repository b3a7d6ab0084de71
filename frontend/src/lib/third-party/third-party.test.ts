import { afterEach, describe, expect, it } from 'vitest'
import { callTrackingUrl } from './call-tracking'
import { loadPixel, PIXEL_SCRIPT_URL } from './pixel'

describe('callTrackingUrl', () => {
  it('fills {jsid} or appends the id', () => {
    expect(callTrackingUrl('https://calls.example/{jsid}.js', 'JS1')).toBe('https://calls.example/JS1.js')
    expect(callTrackingUrl('https://calls.example/', 'JS1')).toBe('https://calls.example/JS1')
  })
})

describe('loadPixel', () => {
  afterEach(() => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: undefined, configurable: true })
    document.head.innerHTML = ''
  })
  const pixelScripts = () => document.querySelectorAll(`script[src="${PIXEL_SCRIPT_URL}"]`).length

  it('loads nothing without an id', () => {
    expect(loadPixel('')).toBe(false)
    expect(pixelScripts()).toBe(0)
  })

  it('loads nothing when the browser sends Global Privacy Control', () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true })
    expect(loadPixel('123')).toBe(false)
    expect(pixelScripts()).toBe(0)
  })

  it('loads the script once when configured', () => {
    expect(loadPixel('456')).toBe(true)
    expect(loadPixel('456')).toBe(true)
    expect(pixelScripts()).toBe(1)
  })
})
