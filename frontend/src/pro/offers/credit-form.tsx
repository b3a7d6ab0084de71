import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { LabelledInput } from '../../components/labelled-input'
import { PortalError, request } from '../api'
import { formatMoney } from '../format'
import type { CreditReason, CreditRequestView } from '../paying-types'
import { ErrorNotice } from '../ui'

const CREDIT_REASONS: { value: CreditReason; label: string }[] = [
  { value: 'wrong_phone', label: 'Wrong or disconnected phone' },
  { value: 'duplicate', label: 'Duplicate of a lead I already bought' },
  { value: 'outside_area', label: 'Outside my service area' },
  { value: 'wrong_service', label: 'Not a service I offer' },
  { value: 'competitor_testing', label: 'A competitor testing' },
  { value: 'other', label: 'Other (tell us why)' },
]
const DETAIL_LIMIT = 1000

/** "Request a credit" on an accepted lead: a reason, and words of one's own (required for Other). */
export function CreditForm({ path, priceCents, onDone, onCancel }: {
  path: string
  priceCents: number
  onDone: (credit: CreditRequestView) => void
  onCancel: () => void
}) {
  const [reason, setReason] = useState<CreditReason | ''>('')
  const [detail, setDetail] = useState('')
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const missing: Record<string, string> = {}
    if (!reason) missing.reason = 'Choose a reason.'
    if (reason === 'other' && !detail.trim()) missing.detail = 'Tell us in a few words what was wrong with the lead.'
    setFields(missing)
    setError(null)
    if (Object.keys(missing).length) return
    setBusy(true)
    try {
      onDone(await request<CreditRequestView>('POST', path, { reason, ...(detail.trim() ? { detail: detail.trim() } : {}) }))
    } catch (failure) {
      const refusal = failure as PortalError
      setFields(refusal.fields)
      // The window and the monthly cap are said by the field the server names; anything else above the button.
      const shownByField = ['reason', 'detail'].some((name) => refusal.fields[name])
      setError(shownByField ? null : refusal.message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form aria-label="Request a credit" noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <fieldset aria-describedby="credit-reason-error">
        <legend className="mb-2 text-sm font-semibold text-slate-800">Why should this lead be credited?</legend>
        <div className="space-y-1">
          {CREDIT_REASONS.map(({ value, label }) => (
            <label key={value} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 hover:bg-slate-50">
              <input type="radio" name="credit-reason" value={value} checked={reason === value} className="size-5 shrink-0 accent-brand-700"
                aria-invalid={fields.reason ? true : undefined} onChange={() => setReason(value)} />
              <span className="text-base">{label}</span>
            </label>
          ))}
        </div>
        <p id="credit-reason-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{fields.reason ?? ''}</p>
      </fieldset>
      <LabelledInput id="credit-detail" label={reason === 'other' ? 'What was wrong (required)' : 'Anything to add (optional)'}
        multiline value={detail} error={fields.detail} hint={`Up to ${DETAIL_LIMIT} characters.`}
        onChange={(event) => setDetail(event.currentTarget.value.slice(0, DETAIL_LIMIT))} />
      <ErrorNotice message={error ?? Object.entries(fields).find(([name]) => name !== 'reason' && name !== 'detail')?.[1]} />
      <p className="text-sm text-slate-600">
        A duplicate of a lead you already bought is credited at once; other reasons are reviewed by our team within 3 to 5
        business days. An approved credit takes {formatMoney(priceCents)} off your statement.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy}>Send the request</button>
        <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
