// Words and numbers of the console's money, shared by its pages.
import { formatDollarAmount } from '../ui'
import type { Account } from './types'

// The server's bound on one adjustment, either way (console/adjustments.py).
export const MOST_ADJUSTED = 100_000

/** Dollars with a sign that says which way: -$12.50 is owed. */
export function signedDollars(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—'
  return amount < 0 ? `-${formatDollarAmount(-amount)}` : formatDollarAmount(amount)
}

/** Prepaid, or credit with its limit and net days. */
export function termsText(account: Pick<Account, 'terms' | 'creditLimit' | 'netDays'>): string {
  if (account.terms === 'prepaid') return 'Prepaid'
  const limit = account.creditLimit === null ? 'no limit' : `limit ${formatDollarAmount(account.creditLimit)}`
  return `Credit, ${limit}, net ${account.netDays} days`
}

/** "12.50" or "-12.50" as typed, to dollars; null for anything else (not zero, at most two decimals,
 * within the bound). */
export function parseAmount(text: string): number | null {
  if (!/^-?\d{1,6}(\.\d{1,2})?$/.test(text.trim())) return null
  const amount = Number(text.trim())
  return amount !== 0 && Math.abs(amount) <= MOST_ADJUSTED ? amount : null
}
