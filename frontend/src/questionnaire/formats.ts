// Phone and date formats shared by the phone and date inputs and by validation (spec section 5).

/** Digits only, at most 11, and 11 only when the first is the US country code 1. */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '')
  if (digits.startsWith('1')) return digits.slice(0, 11)
  return digits.slice(0, 10)
}

/** What the phone input shows as it is typed: (512) 555-0142, with +1 when the country code was
 * typed. No punctuation trails the last digit, so Backspace always removes a digit. */
export function formatPhone(digits: string): string {
  const hasCountryCode = digits.startsWith('1')
  const national = hasCountryCode ? digits.slice(1) : digits
  let shown = national
  if (national.length > 6) shown = `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`
  else if (national.length > 3) shown = `(${national.slice(0, 3)}) ${national.slice(3)}`
  return hasCountryCode ? `+1 ${shown}`.trimEnd() : shown
}

/** The 10-digit national number sent to the server. */
export function nationalNumber(digits: string): string {
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
}

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
]

export interface DateParts {
  year: string
  month: string
  day: string
}

export function splitDate(value: string): DateParts {
  const [year = '', month = '', day = ''] = value.split('-')
  return { year, month, day }
}

/** yyyy-mm-dd once all three parts are chosen; a partial choice keeps its parts for the dropdowns. */
export function joinDate({ year, month, day }: DateParts): string {
  if (!year && !month && !day) return ''
  return `${year}-${month}-${day}`
}

export const isCompleteDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value)

/** The year choices: this year and the 100 before it, newest first. */
export function yearChoices(today = new Date()): string[] {
  const current = today.getFullYear()
  return Array.from({ length: 101 }, (_, index) => String(current - index))
}

/** Whole years between a yyyy-mm-dd birth date and today. */
export function ageOn(birthDate: string, today = new Date()): number {
  const { year, month, day } = splitDate(birthDate)
  let age = today.getFullYear() - Number(year)
  const beforeBirthday =
    today.getMonth() + 1 < Number(month) ||
    (today.getMonth() + 1 === Number(month) && today.getDate() < Number(day))
  if (beforeBirthday) age -= 1
  return age
}
