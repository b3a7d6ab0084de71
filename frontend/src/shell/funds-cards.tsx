// "Add funds" and automatic top-up, as both portals offer them. The card is typed on Stripe's own
// Checkout page, never here: "Add funds" asks the server for a Checkout page and goes there.
import { CreditCard, RefreshCw } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { buttonClasses } from '../components/button-classes'
import type { CheckoutStarted, Funds, FundsApi } from './funds-types'
import { dollars, wholeDollars } from './funds-words'
import { Card, ErrorNotice, SuccessNotice } from './portal-ui'

const INPUT =
  'block w-full min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 aria-invalid:border-red-600'

function DollarsField({ label, value, onChange, error, hint }: {
  label: string
  value: string
  onChange: (text: string) => void
  error: string | null
  hint: string
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-slate-800">{label}</label>
      <div className="relative">
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-600">$</span>
        <input id={id} className={`${INPUT} pl-7`} inputMode="numeric" autoComplete="off" value={value}
          aria-invalid={error ? true : undefined} aria-describedby={`${id}-note`} onChange={(event) => onChange(event.currentTarget.value)} />
      </div>
      <p id={`${id}-note`} className={`mt-1 text-sm ${error ? 'font-medium text-red-800' : 'text-slate-600'}`}>{error ?? hint}</p>
    </div>
  )
}

// Where the browser goes: Stripe's Checkout page (a prop, so tests can watch it).
const goTo = (url: string) => window.location.assign(url)

export function AddFundsCard({ api, funds, go = goTo }: { api: FundsApi; funds: Funds; go?: (url: string) => void }) {
  const [amount, setAmount] = useState('')
  const [saveCard, setSaveCard] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const checkId = useId()
  const { minAmount: low, maxAmount: high } = funds
  const parsed = wholeDollars(amount, low, high)
  const bounds = `Whole dollars, from ${dollars(low)} to ${dollars(high)}.`
  if (!funds.cardPayments) {
    return (
      <Card title="Add funds" id="add-funds-heading">
        <p className="text-base text-slate-800">{funds.cardPaymentsNote}</p>
      </Card>
    )
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (parsed === null) return
    setBusy(true)
    setError(null)
    try {
      const started = await api.request<CheckoutStarted>('POST', `${api.base}/checkout`, { amount: parsed, saveCard })
      go(started.url)
    } catch (failure) {
      setError((failure as Error).message)
      setBusy(false)
    }
  }
  return (
    <Card title="Add funds" id="add-funds-heading">
      <form className="space-y-4" aria-label="Add funds" onSubmit={(event) => void submit(event)}>
        <DollarsField label="Amount" value={amount} onChange={setAmount} hint={bounds}
          error={amount.trim() && parsed === null ? bounds : null} />
        <label htmlFor={checkId} className="flex min-h-11 cursor-pointer items-start gap-3 text-base text-slate-800">
          <input id={checkId} type="checkbox" className="mt-1 size-5 shrink-0 accent-brand-700" checked={saveCard}
            onChange={(event) => setSaveCard(event.currentTarget.checked)} />
          <span>Save this card for automatic top-up</span>
        </label>
        <ErrorNotice message={error} />
        <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy || parsed === null}>
          <CreditCard size={18} aria-hidden="true" /> {busy ? 'Opening Stripe…' : parsed === null ? 'Add funds' : `Add ${dollars(parsed)}`}
        </button>
        <p className="text-sm text-slate-600">You pay on Stripe’s secure page; your card number never reaches us.</p>
      </form>
    </Card>
  )
}

export function AutoTopupCard({ api, funds, onChanged }: { api: FundsApi; funds: Funds; onChanged: (funds: Funds) => void }) {
  const topup = funds.autoTopup
  const [threshold, setThreshold] = useState(topup.threshold === null ? '' : String(topup.threshold))
  const [amount, setAmount] = useState(topup.amount === null ? '' : String(topup.amount))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const parsedThreshold = wholeDollars(threshold, 0, 1_000_000)
  const parsedAmount = wholeDollars(amount, funds.minAmount, funds.maxAmount)
  const send = async (method: 'PUT' | 'DELETE', done: string) => {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      const body = method === 'PUT' ? { threshold: parsedThreshold, amount: parsedAmount } : undefined
      const changed = await api.request<Funds>(method, `${api.base}/topup`, body)
      if (method === 'DELETE') {
        setThreshold('')
        setAmount('')
      }
      onChanged(changed)
      setNotice(done)
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (parsedThreshold !== null && parsedAmount !== null) void send('PUT', 'Saved.')
  }
  const state = topup.active
    ? `On: when your balance falls under ${dollars(topup.threshold ?? 0)}, your saved card is charged ${dollars(topup.amount ?? 0)}.`
    : topup.cardSaved ? 'A card is saved. Set a threshold and an amount to turn automatic top-up on.'
      : 'No card is saved. Tick “Save this card for automatic top-up” when you add funds.'
  if (!funds.cardPayments) return null
  return (
    <Card title="Automatic top-up" id="auto-topup-heading">
      <div className="space-y-4">
        <p className="text-base text-slate-800">{state}</p>
        {topup.lastFailure ? (
          <ErrorNotice message={`The last automatic top-up was declined (${topup.lastFailure}). Add funds with a card and save it to turn top-ups back on.`} />
        ) : null}
        {/* Nothing to set before a card is saved (or while what was set stays, to change or stop). */}
        {topup.cardSaved || topup.threshold !== null ? (
          <form className="grid gap-4 sm:grid-cols-2" aria-label="Automatic top-up" onSubmit={submit}>
            <DollarsField label="When the balance falls under" value={threshold} onChange={setThreshold} hint="Whole dollars."
              error={threshold.trim() && parsedThreshold === null ? 'Whole dollars, 0 or more.' : null} />
            <DollarsField label="Charge the saved card" value={amount} onChange={setAmount}
              hint={`Whole dollars, from ${dollars(funds.minAmount)} to ${dollars(funds.maxAmount)}.`}
              error={amount.trim() && parsedAmount === null ? `Whole dollars, from ${dollars(funds.minAmount)} to ${dollars(funds.maxAmount)}.` : null} />
            <div className="space-y-3 sm:col-span-2">
              <ErrorNotice message={error} />
              <SuccessNotice message={notice} />
              <div className="flex flex-col gap-3 sm:flex-row">
                <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')}
                  disabled={busy || parsedThreshold === null || parsedAmount === null}>
                  <RefreshCw size={18} aria-hidden="true" /> Save automatic top-up
                </button>
                <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy}
                  onClick={() => void send('DELETE', 'Automatic top-up is off and the card is forgotten.')}>
                  Turn off and forget the card
                </button>
              </div>
            </div>
          </form>
        ) : <SuccessNotice message={notice} />}
      </div>
    </Card>
  )
}
