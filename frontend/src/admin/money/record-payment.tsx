// "Record a payment" on an account (docs/console-api.md, "Payments"): money received by wire,
// cheque or otherwise, credited to the account at once and kept on the audit log (admins only:
// the server refuses anyone else). Card payments arrive from Stripe by themselves.
import { useState, type FormEvent } from 'react'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { buttonClass, ErrorNotice, Field, formatDollarAmount, inputClass } from '../ui'
import { MOST_RECORDED, parsePayment, type PaymentMethod, type RecordedPayment } from './payment-amount'

const METHODS: { value: PaymentMethod; label: string }[] = [
  { value: 'wire', label: 'Wire transfer' },
  { value: 'cheque', label: 'Cheque' },
  { value: 'other', label: 'Other' },
]

export function RecordPayment({ account, onDone, onCancel }: {
  account: { id: string; name: string }
  onDone: (recorded: RecordedPayment) => void
  onCancel: () => void
}) {
  const [amount, setAmount] = useState('')
  const [method, setMethod] = useState<PaymentMethod>('wire')
  const [note, setNote] = useState('')
  const { run, error, busy } = useCardAction()
  const parsed = parsePayment(amount)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (parsed === null || !note.trim()) return
    void run(() => request<RecordedPayment>('POST', `/accounts/${encodeURIComponent(account.id)}/payments`,
      { amount: parsed, method, note: note.trim() }), (recorded) => {
      onDone(recorded)
      return [true, '']
    })
  }
  return (
    <form onSubmit={submit} aria-label={`Record a payment from ${account.name}`}
      className="mt-4 grid gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4 sm:grid-cols-2">
      <h2 className="text-base font-semibold sm:col-span-2">Record a payment</h2>
      <Field label="Amount received in dollars"
        error={amount && parsed === null ? `Dollars and cents like 1250.00, more than zero, at most ${formatDollarAmount(MOST_RECORDED)}.` : undefined}>
        <input className={inputClass} inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.currentTarget.value)} />
      </Field>
      <Field label="How it was paid">
        <select className={inputClass} value={method} onChange={(e) => setMethod(e.currentTarget.value as PaymentMethod)}>
          {METHODS.map(({ value, label }) => <option key={value} value={value}>{label}</option>)}
        </select>
      </Field>
      <div className="sm:col-span-2">
        <Field label="Reference (kept on the payment and the audit log)" hint="The bank's reference, the cheque's number, the date received.">
          <textarea className={inputClass} rows={2} required maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        </Field>
      </div>
      <div className="sm:col-span-2"><ErrorNotice message={error} /></div>
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy || parsed === null || !note.trim()}>
          {parsed === null ? 'Record payment' : `Record ${formatDollarAmount(parsed)} received`}
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
