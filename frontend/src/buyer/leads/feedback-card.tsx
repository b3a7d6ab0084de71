import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, leadPath, request } from '../api'
import { formatDateTime } from '../format'
import { FEEDBACK_STATUSES, feedbackLabel } from '../labels'
import type { BuyerFeedback, BuyerLead, FeedbackStatus } from '../types'
import { Card, ErrorNotice, inputClass, SuccessNotice } from '../ui'

const REASON_LIMIT = 200
const NOTE_LIMIT = 1000

/** What became of the lead (contacted, appointment, quoted, sold, bad), and what was said before. */
export function FeedbackCard({ lead, onSent }: { lead: BuyerLead; onSent: () => void }) {
  const [status, setStatus] = useState<FeedbackStatus | ''>('')
  const [reason, setReason] = useState('')
  const [note, setNote] = useState('')
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const missing: Record<string, string> = {}
    if (!status) missing.status = 'Choose what became of the lead.'
    if (status === 'bad' && !reason.trim()) missing.reason = 'Say why the lead was bad.'
    setFields(missing)
    setError(null)
    setDone(null)
    if (Object.keys(missing).length) return
    setBusy(true)
    try {
      await request<BuyerFeedback>('POST', leadPath(lead.id, '/feedback'), {
        status, ...(status === 'bad' ? { reason: reason.trim() } : {}), ...(note.trim() ? { note: note.trim() } : {}),
      })
      setDone('Thank you: your feedback is saved.')
      setStatus('')
      setReason('')
      setNote('')
      onSent()
    } catch (failure) {
      const refusal = failure as BuyerError
      setFields(refusal.fields)
      setError(refusal.message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title="Feedback" id="feedback-heading">
      <div className="space-y-4">
        <form aria-label="Feedback on this lead" noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
          <p className="text-sm text-slate-700">Tell us what became of this lead: it helps us send you leads like your best ones.</p>
          <div>
            <label htmlFor="feedback-status" className="mb-1 block text-sm font-semibold text-slate-800">What became of it</label>
            <select id="feedback-status" className={inputClass} value={status} aria-invalid={fields.status ? true : undefined}
              aria-describedby="feedback-status-error" onChange={(event) => setStatus(event.currentTarget.value as FeedbackStatus)}>
              <option value="">Choose</option>
              {FEEDBACK_STATUSES.map(({ value, label }) => <option key={value} value={value}>{label}</option>)}
            </select>
            <p id="feedback-status-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{fields.status ?? ''}</p>
          </div>
          {status === 'bad' ? (
            <div>
              <label htmlFor="feedback-reason" className="mb-1 block text-sm font-semibold text-slate-800">Why it was bad</label>
              <input id="feedback-reason" className={inputClass} maxLength={REASON_LIMIT} value={reason}
                aria-invalid={fields.reason ? true : undefined} aria-describedby="feedback-reason-error"
                onChange={(event) => setReason(event.currentTarget.value)} />
              <p id="feedback-reason-error" aria-live="polite" className="mt-1 text-sm font-medium text-red-700">{fields.reason ?? ''}</p>
            </div>
          ) : null}
          <div>
            <label htmlFor="feedback-note" className="mb-1 block text-sm font-semibold text-slate-800">Note (optional)</label>
            <textarea id="feedback-note" rows={2} maxLength={NOTE_LIMIT} className={inputClass} value={note}
              onChange={(event) => setNote(event.currentTarget.value)} />
          </div>
          <ErrorNotice message={error} />
          <SuccessNotice message={done} />
          <button type="submit" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy}>Send feedback</button>
        </form>
        <FeedbackHistory items={lead.feedback} />
      </div>
    </Card>
  )
}

function FeedbackHistory({ items }: { items: BuyerFeedback[] }) {
  if (!items.length) return <p className="text-sm text-slate-600">No feedback on this lead yet.</p>
  return (
    <ol aria-label="Feedback given" className="divide-y divide-slate-200 border-t border-slate-200">
      {items.map((item, index) => (
        <li key={index} className="py-2 text-sm">
          <p className="font-semibold text-slate-900">
            {feedbackLabel(item.status)}{item.reason ? `: ${item.reason}` : ''}
          </p>
          {item.note ? <p className="text-slate-800">{item.note}</p> : null}
          <p className="text-slate-600">
            {formatDateTime(item.createdAt)} · {item.givenBy} · {item.source === 'api' ? 'through the API' : 'in the portal'}
          </p>
        </li>
      ))}
    </ol>
  )
}
