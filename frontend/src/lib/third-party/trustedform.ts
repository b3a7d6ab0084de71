// TrustedForm consent certificate (spec section 7): its script writes a hidden input whose
// value (the certificate URL) travels with the lead as click.trustedform.
import { loadScript } from './load-script'

export const CERTIFICATE_FIELD = 'xxTrustedFormCertUrl'
const PING_FIELD = 'xxTrustedFormPingUrl'

/** Load the certificate script; a cache-buster makes every page view its own session, as the vendor asks. */
export function loadTrustedForm(): void {
  const cacheBuster = `${Date.now()}${Math.random()}`
  const src =
    `https://api.trustedform.com/trustedform.js?field=${CERTIFICATE_FIELD}` +
    `&ping_field=${PING_FIELD}&l=${cacheBuster}`
  loadScript(src).catch((error) => console.warn(error))
}

export function readCertificateUrl(): string {
  const input = document.querySelector<HTMLInputElement>(`input[name="${CERTIFICATE_FIELD}"]`)
  return input?.value ?? ''
}

/** Poll for the certificate (up to 30 times, 1 s apart) and give back whatever is there at the end. */
export async function waitForCertificate(polls = 30, intervalMs = 1000): Promise<string> {
  for (let attempt = 0; attempt < polls; attempt += 1) {
    const value = readCertificateUrl()
    if (value) return value
    await new Promise((resolve) => window.setTimeout(resolve, intervalMs))
  }
  return readCertificateUrl()
}
