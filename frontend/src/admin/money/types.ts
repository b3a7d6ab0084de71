// Shapes of the console's money answers (docs/console-api.md, "Money"; backend console/money.py,
// money_accounts.py, router_money.py). Money is in dollars.

/** GET /money's receivables: what the accounts owe now, and how late. */
export interface Receivables {
  owed: number
  current: number
  overdue1to30: number
  overdue31to60: number
  overdueOver60: number
  accountsOwing: number
  accountsOverdue: number
  // The positive balances: prepaid funds and credits not spent yet.
  funds: number
}

export interface CashDay {
  day: string
  received: number
  paidOut: number
  net: number
}

export interface Cash {
  received: number
  paidOut: number
  net: number
  perDay: CashDay[]
}

/** The last finished run of `servicematch ledger check`. */
export interface LastCheck {
  id: number
  startedAt: string
  finishedAt: string
  ok: boolean
  accounts: number
  entries: number
  problems: string[]
  problemCount: number
}

export interface MoneySummary {
  range: { from: string; to: string }
  receivables: Receivables
  cash: Cash
  lastCheck: LastCheck | null
}

export interface Account {
  id: string
  kind: 'buyer' | 'provider'
  ownerId: string
  name: string
  terms: 'prepaid' | 'credit'
  creditLimit: number | null
  netDays: number
  balance: number
  // What it may still spend; null: credit terms without a limit.
  available: number | null
  overdue: number
  holdReason: 'funds' | 'overdue' | null
  heldSince: string | null
}

export interface Entry {
  id: number
  kind: string
  amount: number
  balanceAfter: number
  cause: string
  causeId: string
  leadId: string | null
  leadReference: string | null
  description: string
  note: string | null
  createdBy: string
  createdAt: string
  reverses: number | null
  reversedBy: number | null
  reversible: boolean
}

export interface AccountEntries {
  account: Account
  entries: Entry[]
  nextCursor: string | null
}

/** What an adjustment or a reversal answers: the new entry, and its account after it. */
export interface Posted {
  entry: Entry
  account: Account
}
