// Alerts of spec section 8 shared by the lead form and the call flow.
export const RECAPTCHA_FAILED = 'reCAPTCHA verification failed. Please try again.'
// Shown under a required field left empty, so the problem is told in words, not only by the red ring.
export const REQUIRED_FIELD = 'This field is required.'
export const SUBMIT_FAILED = 'There was an error submitting the form. Please try again.'
