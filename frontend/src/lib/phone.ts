// A phone number as the portals and the console show it. (The lead form's own formatting, as the
// number is typed, is questionnaire/formats.ts.)

/** A US number as people read it: "5125550142", "+1 512 555 0142" -> "(512) 555-0142"; none -> "—";
 * anything else (a masked "***-***-0142", a short number) as it came. */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return '—'
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '')
  return digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : phone
}
