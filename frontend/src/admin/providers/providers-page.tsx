import { Plus, Send } from 'lucide-react'
import { useState } from 'react'
import { request } from '../api'
import { ActiveBadge, EditPauseResume, useCardAction } from '../directory-parts'
import { useOperator } from '../session'
import type { Provider } from '../types'
import { useApi } from '../use-api'
import { buttonClass, Card, ErrorNotice, Loading, PageTitle, SuccessNotice } from '../ui'
import { ProviderForm } from './provider-form'

type Editing = Provider | 'new' | null

interface TestSendResult {
  channel: string
  outcome: string
  httpStatus: number | null
  error: string | null
  durationMs: number | null
}

const describeResult = (r: TestSendResult) =>
  [`${r.channel} ${r.outcome}`, r.httpStatus !== null && `HTTP ${r.httpStatus}`,
    r.durationMs !== null && `${r.durationMs} ms`, r.error].filter(Boolean).join(', ')

function ProviderCard({ provider, isAdmin, onEdit, onChanged }: {
  provider: Provider
  isAdmin: boolean
  onEdit: () => void
  onChanged: () => void
}) {
  const { run, notice, error, busy } = useCardAction()
  const path = `/providers/${encodeURIComponent(String(provider.id))}`

  const act = (action: 'disable' | 'enable', done: string) =>
    run(() => request('POST', `${path}/${action}`), () => {
      onChanged()
      return [true, done]
    })
  const testSend = () => run(() => request<{ results: TestSendResult[] }>('POST', `${path}/test-send`), (answer) => {
    const failed = answer.results.filter((r) => r.outcome !== 'delivered')
    const summary = answer.results.map(describeResult).join('; ')
    return failed.length ? [false, `Test send did not go through: ${summary}`] : [true, `Test lead sent: ${summary}`]
  })

  const area = [provider.states.join(', '), provider.zips.join(', ')].filter(Boolean).join(' · ')
  return (
    <Card title={provider.name} actions={<ActiveBadge active={provider.active} />}>
      {provider.paused && (
        <p className="mb-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Deliveries are on hold: the endpoint kept failing.
        </p>
      )}
      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">E-mail</dt><dd className="min-w-0 break-all">{provider.email ?? '—'}</dd>
        <dt className="text-slate-500">Webhook</dt><dd className="min-w-0 break-all">{provider.webhookUrl ?? '—'}</dd>
        <dt className="text-slate-500">Services</dt><dd className="min-w-0 break-words">{provider.services.join(', ')}</dd>
        <dt className="text-slate-500">Area</dt>
        <dd className="min-w-0 break-words">{area || '—'}{provider.radiusMiles ? ` (${provider.radiusMiles} mi)` : ''}</dd>
        <dt className="text-slate-500">Today</dt>
        <dd className="tabular-nums">{provider.leadsToday}{provider.dailyCap ? ` of ${provider.dailyCap}` : ' (no cap)'}</dd>
      </dl>
      <ErrorNotice message={error} />
      <SuccessNotice message={notice} />
      {isAdmin && (
        <div className="mt-3 flex flex-wrap gap-2">
          <EditPauseResume name={provider.name} active={provider.active} busy={busy} onEdit={onEdit}
            onPause={() => act('disable', 'Paused: no new leads go to this provider.')}
            onResume={() => act('enable', 'Resumed: this provider receives leads again.')} />
          <button type="button" className={buttonClass('secondary')} disabled={busy} aria-label={`Test send to ${provider.name}`}
            onClick={testSend}>
            <Send size={16} aria-hidden="true" /> Test send
          </button>
        </div>
      )}
    </Card>
  )
}

export default function ProvidersPage() {
  const { isAdmin } = useOperator()
  const { data, error, loading, reload } = useApi<{ items: Provider[] }>('/providers')
  const [editing, setEditing] = useState<Editing>(null)
  const saved = () => {
    setEditing(null)
    reload()
  }
  return (
    <>
      <PageTitle actions={isAdmin && editing === null && (
        <button type="button" className={buttonClass('primary')} onClick={() => setEditing('new')}>
          <Plus size={16} aria-hidden="true" /> Add provider
        </button>
      )}>Providers</PageTitle>
      {editing !== null && (
        <div className="mb-4">
          <ProviderForm key={editing === 'new' ? 'new' : String(editing.id)} provider={editing === 'new' ? null : editing}
            onSaved={saved} onCancel={() => setEditing(null)} />
        </div>
      )}
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">No providers yet.</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {data?.items.map((p) => (
          <ProviderCard key={p.id} provider={p} isAdmin={isAdmin} onChanged={reload}
            onEdit={() => { setEditing(p); window.scrollTo({ top: 0 }) }} />
        ))}
      </div>
    </>
  )
}
