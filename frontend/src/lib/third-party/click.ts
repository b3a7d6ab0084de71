import { storedAttribution } from '../url-params'
import { pixelCookie } from './pixel'

export interface ClickData {
  domain_url: string
  externalid: string
  subid1: string
  subid2: string
  fbclid: string
  fbp: string
  useragent: string
  ip: string
  trustedform: string
}

/** The click object of both submissions: attribution, pixel cookie, user agent and certificate. */
export function collectClickData(trustedform: string): ClickData {
  return {
    domain_url: window.location.href,
    ...storedAttribution(),
    fbp: pixelCookie(),
    useragent: navigator.userAgent,
    // The server records the address it sees; the browser cannot know it reliably.
    ip: '',
    trustedform,
  }
}
