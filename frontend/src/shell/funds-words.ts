// How both portals word an account's funds: money, days, terms, amounts as typed.
import type { Funds } from './funds-types'

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' })

/** 18.75 -> "$18.75", -30 -> "-$30.00". */
export const dollars = (amount: number) => money.format(amount)

export function shortDate(iso: string | null): string {
  const date = iso ? new Date(iso) : null
  return date && !Number.isNaN(date.getTime()) ? day.format(date) : '—'
}

/** "Prepaid: leads come while your balance covers their price.", or the credit terms. */
export function termsWords(funds: Pick<Funds, 'terms' | 'creditLimit' | 'netDays'>): string {
  if (funds.terms === 'prepaid') return 'Prepaid: leads come while your balance covers their price.'
  const limit = funds.creditLimit === null ? 'no credit limit' : `a credit limit of ${dollars(funds.creditLimit)}`
  return `Credit: ${limit}; invoices are due ${funds.netDays} days after they are issued.`
}

/** Whole dollars within [low, high] as typed ("250", "$1,000"); null for anything else. */
export function wholeDollars(text: string, low: number, high: number): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '')
  if (!/^\d{1,9}$/.test(plain)) return null
  const amount = Number(plain)
  return amount >= low && amount <= high ? amount : null
}
