// Browser pixel (spec section 2): CompleteRegistration on the thank-you pages, Contact on the
// phone link. Never loaded when the browser sends Global Privacy Control.

import { privacyControlRequested } from '../privacy-control'

type Fbq = ((...args: unknown[]) => void) & {
  queue?: unknown[][]
  loaded?: boolean
  version?: string
  callMethod?: (...args: unknown[]) => void
}

declare global {
  interface Window {
    fbq?: Fbq
    _fbq?: Fbq
  }
}

export const PIXEL_SCRIPT_URL = 'https://connect.facebook.net/en_US/fbevents.js'
const initialised = new Set<string>()


/** The pixel's first-party cookie (_fbp), also sent with each lead as click.fbp. */
export function pixelCookie(): string {
  const match = document.cookie.match(/(?:^|;\s*)_fbp=([^;]*)/)
  return match ? decodeURIComponent(match[1]) : ''
}

/** An id that lets the server-side copy of an event be matched to the browser's. */
export function pixelEventId(event: string): string {
  return `${event}.${pixelCookie() || 'nofbp'}.${Date.now()}`
}

function installQueue(): Fbq {
  if (window.fbq) return window.fbq
  const queue: unknown[][] = []
  // The vendor script sets callMethod when it arrives; until then calls wait in the queue.
  const fbq: Fbq = (...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod(...args)
    else queue.push(args)
  }
  fbq.queue = queue
  fbq.loaded = true
  fbq.version = '2.0'
  window.fbq = fbq
  window._fbq = fbq
  return fbq
}

/** Load the pixel script when an id is configured and privacy control is off; true when usable. */
export function loadPixel(pixelId: string): boolean {
  if (!pixelId || privacyControlRequested()) return false
  const fbq = installQueue()
  if (!initialised.has(pixelId)) {
    initialised.add(pixelId)
    fbq('init', pixelId)
    fbq('track', 'PageView')
    const script = document.createElement('script')
    script.async = true
    script.src = PIXEL_SCRIPT_URL
    document.head.appendChild(script)
  }
  return true
}

export function trackPixel(pixelId: string, event: 'CompleteRegistration' | 'Contact'): void {
  if (!loadPixel(pixelId)) return
  window.fbq?.('track', event, {}, { eventID: pixelEventId(event) })
}
