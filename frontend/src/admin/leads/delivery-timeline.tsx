import { RotateCw } from 'lucide-react'
import { useState } from 'react'
import { ConsoleError, request } from '../api'
import type { LeadDelivery } from '../types'
import { buttonClass, ErrorNotice, formatTime, StatusBadge, SuccessNotice } from '../ui'

// Only these can be sent again; the server refuses the others (pending ones are still trying).
const RESENDABLE = ['failed', 'rejected']

function DeliveryItem({ delivery, canResend, onResent }: {
  delivery: LeadDelivery
  canResend: boolean
  onResent: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  async function resend() {
    setBusy(true)
    setError(null)
    try {
      await request('POST', `/deliveries/${encodeURIComponent(String(delivery.id))}/retry`)
      setDone('Queued to send again.')
      onResent()
    } catch (failure) {
      setError((failure as ConsoleError).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 break-words text-sm font-semibold">
          {delivery.carried} <span className="font-normal text-slate-500">to</span> {delivery.recipient}{' '}
          <span className="font-normal text-slate-500">by {delivery.channel}</span>{' '}
          <StatusBadge status={delivery.status} />
        </p>
        {canResend && RESENDABLE.includes(delivery.status) && !delivery.heldReason && (
          <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={resend}
            aria-label={`Resend to ${delivery.recipient}`}>
            <RotateCw size={16} aria-hidden="true" /> Resend
          </button>
        )}
      </div>
      {/* Held back on purpose (the consumer withdrew consent, was erased, opted out...): not an error. */}
      {delivery.heldReason && <p className="mt-1 text-sm text-slate-800">Not sent: {delivery.heldReason}.</p>}
      <ErrorNotice message={error} />
      <SuccessNotice message={done} />
      {delivery.attempts.length === 0 ? (
        !delivery.heldReason && <p className="mt-2 text-sm text-slate-500">Not attempted yet.</p>
      ) : (
        <ol className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3 text-sm">
          {delivery.attempts.map((a, i) => (
            <li key={`${a.at}-${i}`}>
              <span className="text-slate-500">{formatTime(a.at)}</span> · {a.outcome}
              {a.httpStatus !== null && <> · HTTP {a.httpStatus}</>}
              {a.durationMs !== null && <> · {a.durationMs} ms</>}
              {a.error && <span className="block break-words text-red-800">{a.error}</span>}
            </li>
          ))}
        </ol>
      )}
    </li>
  )
}

export function DeliveryTimeline({ deliveries, canResend, onResent }: {
  deliveries: LeadDelivery[]
  canResend: boolean
  onResent: () => void
}) {
  if (deliveries.length === 0) return <p className="text-sm text-slate-500">No deliveries for this lead.</p>
  return (
    <ul className="space-y-3">
      {deliveries.map((d) => <DeliveryItem key={d.id} delivery={d} canResend={canResend} onResent={onResent} />)}
    </ul>
  )
}
