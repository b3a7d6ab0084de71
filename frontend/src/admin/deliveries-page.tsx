import { RotateCw } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { ConsoleError, request } from './api'
import { useFilters } from './filters'
import { PagedTable } from './paged-table'
import { PATHS } from './paths'
import { useOperator } from './session'
import type { DeliveryRow } from './types'
import { useApi, usePagedList, type Loaded } from './use-api'
import { buttonClass, ErrorNotice, formatTime, PageTitle, StatusBadge, SuccessNotice } from './ui'

const STATUSES = ['failed', 'rejected', 'pending'] as const
type Status = (typeof STATUSES)[number]

/** The tab to show: the one the address names, else the first that has deliveries (failed when
 * none has, or the counts cannot be read); null while the counts are on their way. */
function shownStatus(chosen: string, counts: Loaded<Record<Status, number>>): Status | null {
  const named = STATUSES.find((s) => s === chosen)
  if (named) return named
  if (counts.data) return STATUSES.find((s) => counts.data![s] > 0) ?? 'failed'
  return counts.error ? 'failed' : null
}

export default function DeliveriesPage() {
  const { isAdmin } = useOperator()
  const filters = useFilters(['status'])
  const counts = useApi<Record<Status, number>>('/deliveries/counts')
  const status = shownStatus(filters.values.status, counts)
  // Pending deliveries are still being tried; the server retries only failed and rejected ones.
  const canRetry = isAdmin && status !== null && status !== 'pending'
  const list = usePagedList<DeliveryRow>(status && `/deliveries?status=${status}`)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [notice, setNotice] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function retry(ids: string[]) {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      if (ids.length === 1) {
        await request('POST', `/deliveries/${encodeURIComponent(ids[0])}/retry`)
        setNotice('1 delivery queued to send again.')
      } else {
        const answer = await request<{ retried: number }>('POST', '/deliveries/retry', { ids })
        setNotice(`${answer.retried} ${answer.retried === 1 ? 'delivery' : 'deliveries'} queued to send again.`)
      }
      setSelected(new Set())
      list.reload()
      counts.reload()
    } catch (failure) {
      setError((failure as ConsoleError).message)
    } finally {
      setBusy(false)
    }
  }

  const toggle = (id: string) => setSelected((previous) => {
    const next = new Set(previous)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    return next
  })
  // A held delivery (the consumer withdrew consent, was erased, opted out) is not sent again: the server refuses it.
  const allIds = list.items.filter((d) => !d.heldReason).map((d) => String(d.id))
  const allSelected = allIds.length > 0 && allIds.every((id) => selected.has(id))

  return (
    <>
      <PageTitle actions={canRetry && (
        <button type="button" className={buttonClass('primary')} disabled={busy || selected.size === 0}
          onClick={() => retry([...selected])}>
          <RotateCw size={16} aria-hidden="true" /> Retry selected ({selected.size})
        </button>
      )}>Deliveries</PageTitle>
      <div role="group" aria-label="Delivery status" className="mb-4 flex flex-wrap gap-2">
        {STATUSES.map((s) => (
          <button key={s} type="button" aria-pressed={s === status}
            className={buttonClass(s === status ? 'primary' : 'secondary')}
            onClick={() => { setSelected(new Set()); filters.set('status', s) }}>
            {s[0].toUpperCase() + s.slice(1)}
            {counts.data && <span className="tabular-nums">({counts.data[s]})</span>}
          </button>
        ))}
      </div>
      <ErrorNotice message={error} />
      <SuccessNotice message={notice} />
      <PagedTable list={list} minWidth="56rem" empty={`No ${status} deliveries.`}
        headers={[
          ...(canRetry ? [<input key="all" type="checkbox" aria-label="Select all" className="size-5" checked={allSelected}
            onChange={() => setSelected(allSelected ? new Set() : new Set(allIds))} />] : []),
          // The row's Retry comes first, so a phone shows it without the table scrolled sideways.
          ...(canRetry ? [<span key="retry" className="sr-only">Retry</span>] : []),
          'Lead', 'Recipient', 'Carries', 'Status', 'Attempts', 'Last error', 'Next attempt',
        ]}
        row={(d) => (
          <tr key={d.id} className="border-t border-slate-100 align-top">
            {canRetry && (
              <td className="px-3 py-2">
                {!d.heldReason && <input type="checkbox" className="size-5" aria-label={`Select delivery to ${d.recipient} for ${d.requestId}`}
                  checked={selected.has(String(d.id))} onChange={() => toggle(String(d.id))} />}
              </td>
            )}
            {canRetry && (
              <td className="px-3 py-2">
                {d.heldReason ? <span className="text-sm text-slate-600">Held</span> : (
                  <button type="button" className={buttonClass('secondary')} disabled={busy}
                    aria-label={`Retry delivery to ${d.recipient} for ${d.requestId}`} onClick={() => retry([String(d.id)])}>
                    Retry
                  </button>
                )}
              </td>
            )}
            <td className="px-3 py-2">
              <Link to={PATHS.lead(d.leadId)} className="inline-block break-all text-brand-700 underline underline-offset-2">{d.requestId}</Link>
            </td>
            <td className="px-3 py-2">{d.recipient}<span className="block text-xs text-slate-500">{d.channel}</span></td>
            <td className="px-3 py-2">{d.carried}</td>
            <td className="px-3 py-2"><StatusBadge status={d.status} /></td>
            <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
            {d.heldReason
              ? <td className="max-w-xs px-3 py-2 break-words text-slate-800">Not sent: {d.heldReason}.</td>
              : <td className="max-w-xs px-3 py-2 break-words text-red-800">{d.lastError ?? '—'}</td>}
            <td className="px-3 py-2">{formatTime(d.nextAttemptAt)}</td>
          </tr>
        )} />
    </>
  )
}
