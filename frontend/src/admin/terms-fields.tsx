// How a buyer or a provider pays, on its console form: prepaid or credit, the credit limit and the
// days an invoice is due, with its balance and any hold beside them (read only: money moves by
// payments and adjustments, never by editing a balance).
import { formatTime, Field, inputClass } from './ui'

/** What the console's buyers and providers carry about money, beside the generated types until
 * the API types are made again (`make api-types`); the server's answers carry them already. */
export interface AccountMoney {
  terms: 'prepaid' | 'credit'
  creditLimit: number | null
  netDays: number
  balance: number
  available: number | null
  hold: 'funds' | 'overdue' | null
  heldSince: string | null
}

export interface TermsDraft {
  terms: 'prepaid' | 'credit'
  creditLimit: string
  netDays: string
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const HOLDS = { funds: 'its balance and credit do not cover a lead', overdue: 'an invoice is past due' }

/** A new account is prepaid, invoices due in 15 days, as the server makes it. */
export function termsDraftOf(account: Partial<AccountMoney> | null): TermsDraft {
  return {
    terms: account?.terms ?? 'prepaid',
    creditLimit: account?.creditLimit != null ? account.creditLimit.toString() : '',
    netDays: (account?.netDays ?? 15).toString(),
  }
}

/** The fields the server takes. A credit limit goes only with credit terms (empty: no limit);
 * moving to prepaid drops it on the server. */
export function termsBody(draft: TermsDraft) {
  const netDays = draft.netDays.trim() === '' ? {} : { netDays: Number(draft.netDays) }
  if (draft.terms === 'prepaid') return { terms: draft.terms, ...netDays }
  return { terms: draft.terms, creditLimit: draft.creditLimit.trim() === '' ? null : Number(draft.creditLimit), ...netDays }
}

export function TermsFields({ draft, onChange, errors, account }: {
  draft: TermsDraft
  onChange: (draft: TermsDraft) => void
  errors: Record<string, string>
  // The stored account, for its money; null for a new buyer or provider.
  account: Partial<AccountMoney> | null
}) {
  const set = (key: keyof TermsDraft, value: string) => onChange({ ...draft, [key]: value })
  return (
    <fieldset className="grid gap-3 text-sm sm:col-span-2 sm:grid-cols-3">
      <legend className="mb-1 font-medium text-slate-700">How it pays</legend>
      <Field label="Terms" error={errors.terms}>
        <select className={inputClass} value={draft.terms} onChange={(e) => set('terms', e.currentTarget.value)}>
          <option value="prepaid">Prepaid (buys while its balance covers the price)</option>
          <option value="credit">Credit (invoiced; buys up to its limit)</option>
        </select>
      </Field>
      {draft.terms === 'credit' ? (
        <Field label="Credit limit ($)" hint="How far below zero its balance may go. Empty: no limit." error={errors.creditLimit}>
          <input className={inputClass} type="number" min={0} max={1000000} step="0.01" inputMode="decimal"
            value={draft.creditLimit} onChange={(e) => set('creditLimit', e.currentTarget.value)} />
        </Field>
      ) : <div aria-hidden="true" className="hidden sm:block" />}
      <Field label="Invoices due (days)" hint="Days after an invoice is issued." error={errors.netDays}>
        <input className={inputClass} type="number" min={0} max={180} step={1} value={draft.netDays}
          onChange={(e) => set('netDays', e.currentTarget.value)} />
      </Field>
      {account && account.balance !== undefined ? (
        <p className="text-slate-700 sm:col-span-3">
          Balance <strong className="tabular-nums">{dollars.format(account.balance)}</strong>
          {' · '}may still spend <strong className="tabular-nums">
            {account.available == null ? 'no limit' : dollars.format(account.available)}</strong>
          {account.hold ? (
            <span className="font-medium text-amber-800">
              {' · '}not receiving leads: {HOLDS[account.hold]}{account.heldSince ? ` (since ${formatTime(account.heldSince)})` : ''}
            </span>
          ) : null}
        </p>
      ) : null}
    </fieldset>
  )
}
