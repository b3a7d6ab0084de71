import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, leadPath, request } from '../api'
import { ReturnStatusBadge } from '../badges'
import { formatDate, formatDateTime, formatDollars } from '../format'
import { RETURN_REASONS, returnReasonLabel } from '../labels'
import type { BuyerLead, BuyerReturn, ReturnReason } from '../types'
import { Card, ErrorNotice, Facts, inputClass } from '../ui'

const NOTE_LIMIT = 1000

/** A return lodged on this lead: its status, why, and what was decided. */
function LodgedReturn({ lodged }: { lodged: BuyerReturn }) {
  return (
    <div className="space-y-3">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-800">
        <ReturnStatusBadge status={lodged.status} /> {formatDollars(lodged.price)}
      </p>
      <Facts rows={[
        ['Reason', returnReasonLabel(lodged.reason)],
        ...(lodged.note ? [['Your note', lodged.note] as [string, string]] : []),
        ['Asked', `${formatDateTime(lodged.createdAt)} by ${lodged.requestedBy}`],
        ...(lodged.decidedAt ? [['Decided', `${formatDateTime(lodged.decidedAt)}${lodged.decidedBy ? ` by ${lodged.decidedBy}` : ''}`] as [string, string]] : []),
        ...(lodged.decisionNote ? [['Our note', lodged.decisionNote] as [string, string]] : []),
      ]} />
      {lodged.status === 'pending' ? <p className="text-sm text-slate-700">Our team reviews returns within 3 business days.</p> : null}
      {lodged.status === 'approved' ? <p className="text-sm text-slate-700">The price is taken off what you owe.</p> : null}
    </div>
  )
}

/** Return the lead with a reason, while the buyer's return window and share allow; or the return lodged. */
export function ReturnCard({ lead, onReturned }: { lead: BuyerLead; onReturned: () => void }) {
  const [reason, setReason] = useState<ReturnReason | ''>('')
  const [note, setNote] = useState('')
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const { canReturn, problem, returnableUntil } = lead.returnInfo

  if (lead.lodgedReturn) {
    return <Card title="Return" id="return-heading"><LodgedReturn lodged={lead.lodgedReturn} /></Card>
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const missing: Record<string, string> = {}
    if (!reason) missing.reason = 'Choose a reason.'
    if (reason === 'other' && !note.trim()) missing.note = 'Say in a few words what was wrong with the lead.'
    setFields(missing)
    setError(null)
    if (Object.keys(missing).length) return
    setBusy(true)
    try {
      await request<BuyerReturn>('POST', leadPath(lead.id, '/return'), { reason, ...(note.trim() ? { note: note.trim() } : {}) })
      onReturned()
    } catch (failure) {
      const refusal = failure as BuyerError
      setFields(refusal.fields)
      setError(refusal.message)
    } finally {
      setBusy(false)
    }
  }

  const disabled = !canReturn || busy
  return (
    <Card title="Return this lead" id="return-heading">
      <form aria-label="Return this lead" noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
        {canReturn ? (
          <p className="text-sm text-slate-700">
            A lead with a wrong phone, a duplicate, a fake, a minor or one outside your filters can be returned
            {returnableUntil ? ` until ${formatDate(returnableUntil)}` : ''}. An approved return takes {formatDollars(lead.price)} off
            what you owe.
          </p>
        ) : (
          <p role="status" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800">
            {problem ?? 'This lead cannot be returned.'}
          </p>
        )}
        <div>
          <label htmlFor="return-reason" className="mb-1 block text-sm font-semibold text-slate-800">Reason</label>
          <select id="return-reason" className={inputClass} value={reason} disabled={disabled}
            aria-invalid={fields.reason ? true : undefined} aria-describedby="return-reason-error"
            onChange={(event) => setReason(event.currentTarget.value as ReturnReason)}>
            <option value="">Choose a reason</option>
            {RETURN_REASONS.map(({ value, label }) => <option key={value} value={value}>{label}</option>)}
          </select>
          <p id="return-reason-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{fields.reason ?? ''}</p>
        </div>
        <div>
          <label htmlFor="return-note" className="mb-1 block text-sm font-semibold text-slate-800">
            {reason === 'other' ? 'Note (required)' : 'Note (optional)'}
          </label>
          <textarea id="return-note" rows={3} maxLength={NOTE_LIMIT} className={inputClass} value={note} disabled={disabled}
            aria-invalid={fields.note ? true : undefined} aria-describedby="return-note-error"
            onChange={(event) => setNote(event.currentTarget.value)} />
          <p id="return-note-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{fields.note ?? ''}</p>
        </div>
        <ErrorNotice message={error} />
        <button type="submit" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={disabled}>
          {busy ? 'Sending…' : 'Return this lead'}
        </button>
      </form>
    </Card>
  )
}
