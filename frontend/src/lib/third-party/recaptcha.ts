// reCAPTCHA v3 (spec section 7): a token for action "submit", added to the payload as recaptchaToken.
import { loadScript } from './load-script'

interface Grecaptcha {
  ready(callback: () => void): void
  execute(siteKey: string, options: { action: string }): Promise<string>
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha
  }
}

const TOKEN_TIMEOUT_MS = 10000

const scriptUrl = (siteKey: string) =>
  `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`

/** Start loading early so the token is quick to get at submit time. */
export function preloadRecaptcha(siteKey: string): void {
  loadScript(scriptUrl(siteKey)).catch((error) => console.warn(error))
}

/** A token, or null when the script cannot load or answer in time. */
export async function getRecaptchaToken(siteKey: string): Promise<string | null> {
  try {
    await loadScript(scriptUrl(siteKey))
    const grecaptcha = window.grecaptcha
    if (!grecaptcha) return null
    const token = new Promise<string>((resolve, reject) =>
      grecaptcha.ready(() => grecaptcha.execute(siteKey, { action: 'submit' }).then(resolve, reject)),
    )
    const timeout = new Promise<null>((resolve) => window.setTimeout(() => resolve(null), TOKEN_TIMEOUT_MS))
    return (await Promise.race([token, timeout])) || null
  } catch (error) {
    console.warn('reCAPTCHA token request failed', error)
    return null
  }
}
