// The quality gate's reason codes (docs/quality.md, "Checks and reason codes") in an operator's words.
// A code this list does not know yet is shown as it is.

const LABELS: Record<string, string> = {
  honeypot: 'Hidden bot field filled in',
  form_too_fast: 'Form filled in too fast',
  form_timing_mismatch: "Form timing contradicts the server's",
  form_unreported: 'Form sent no timing',
  form_unconfirmed: 'No page visit seen for the form',
  recaptcha_low: 'Low reCAPTCHA score',
  phone_fake: 'Made-up phone number',
  phone_invalid: 'Phone number not valid',
  phone_not_personal: 'Phone not a personal line',
  phone_voip: 'VoIP phone number',
  phone_prepaid: 'Prepaid phone',
  phone_area_state: "Area code from another state",
  email_disposable: 'Disposable e-mail address',
  email_role: 'Role e-mail address (info@, sales@…)',
  email_no_mail_server: 'E-mail domain takes no mail',
  velocity_phone: 'Same phone on many leads',
  velocity_email: 'Same e-mail on many leads',
  velocity_address: 'Same address on many leads',
  velocity_ip: 'Same device address on many leads',
  trustedform_failed: 'Consent certificate failed',
}

// Buyers' return reasons (buyer/returns.py).
const RETURN_LABELS: Record<string, string> = {
  wrong_phone: 'Wrong or disconnected phone',
  duplicate: 'Duplicate',
  fraud: 'Fake or fraudulent',
  under_18: 'Consumer under 18',
  outside_filters: "Outside the buyer's filters",
  other: 'Other',
}

const SUPPRESSED = 'suppressed:'

/** A reason code in words: "Disposable e-mail address", "On suppression list litigators". */
export function reasonLabel(code: string): string {
  if (code.startsWith(SUPPRESSED)) return `On suppression list ${code.slice(SUPPRESSED.length)}`
  return LABELS[code] ?? code
}

export function returnReasonLabel(code: string): string {
  return RETURN_LABELS[code] ?? code
}
