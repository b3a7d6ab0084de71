// Alerts of spec section 8 shared by the lead form and the call flow.
export const RECAPTCHA_FAILED = 'reCAPTCHA verification failed. Please try again.'
// Shown under a required field left empty, so the problem is told in words, not only by the red ring.
export const REQUIRED_FIELD = 'This field is required.'
export const SUBMIT_FAILED = 'There was an error submitting the form. Please try again.'

/** A 429: what happened and when to try again, in whole minutes (rounded up). */
export function tooManyRequests(retryAfterSeconds: number | null): string {
  const minutes = retryAfterSeconds ? Math.ceil(retryAfterSeconds / 60) : null
  const when = minutes === null ? 'in a few minutes' : minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`
  return `We have received too many requests from your connection. Please try again ${when}.`
}
