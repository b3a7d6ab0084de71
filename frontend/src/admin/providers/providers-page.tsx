import { BadgeCheck, MailPlus, Plus, Send, UserPlus } from 'lucide-react'
import { useState } from 'react'
import { request } from '../api'
import { ActiveBadge, EditPauseResume, useCardAction } from '../directory-parts'
import { useOperator } from '../session'
import type { Provider, TestSendResult } from '../types'
import { useApi } from '../use-api'
import { buttonClass, Card, ErrorNotice, formatDollars, Loading, PageTitle, SuccessNotice } from '../ui'
import { InviteForm } from './invite-form'
import { ProviderForm } from './provider-form'

type Editing = Provider | 'new' | 'invite' | null

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
  const licenceChecked = () => run(() => request<Provider>('POST', `${path}/licence-checked`), () => {
    onChanged()
    return [true, 'Licence checked: the provider shows the verified badge.']
  })
  const inviteAgain = () => run(() => request<{ email: { sent: boolean; error: string | null } }>('POST', `${path}/invite-again`),
    (answer) => answer.email.sent ? [true, 'A new invitation was e-mailed; the older link no longer works.']
      : [false, `The invitation was not sent: ${answer.email.error}`])
  const testSend = () => run(() => request<{ results: TestSendResult[] }>('POST', `${path}/test-send`), (answer) => {
    const failed = answer.results.filter((r) => r.outcome !== 'delivered')
    const summary = answer.results.map(describeResult).join('; ')
    return failed.length ? [false, `Test send did not go through: ${summary}`] : [true, `Test lead sent: ${summary}`]
  })

  const area = [provider.states.join(', '), provider.zips.join(', ')].filter(Boolean).join(' · ')
  return (
    <Card title={provider.name} actions={
      <span className="flex flex-wrap gap-1">
        {provider.verified && (
          <span className="inline-flex items-center gap-1 rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">
            <BadgeCheck size={14} aria-hidden="true" /> Verified
          </span>
        )}
        {provider.mode === 'review' && <span className="rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">Review mode</span>}
        <ActiveBadge active={provider.active} />
      </span>}>
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
        <dt className="text-slate-500">Licence</dt>
        <dd>{provider.licenceNumber ? `${provider.licenceNumber} (${provider.licenceState})` : '—'}</dd>
        <dt className="text-slate-500">Portal</dt>
        <dd>{{ none: 'No account', invited: 'Invited, no password yet', active: 'Signed up' }[provider.portalAccount ?? 'none']}
          {provider.pausedBy === 'provider' ? ' · paused by the provider' : ''}</dd>
        <dt className="text-slate-500">Today</dt>
        <dd className="tabular-nums">{provider.leadsToday}{provider.dailyCap ? ` of ${provider.dailyCap}` : ' (no cap)'}</dd>
        <dt className="text-slate-500">Lead price</dt>
        <dd className="tabular-nums">{provider.leadPriceCents != null ? formatDollars(provider.leadPriceCents) : 'List price'}
          {provider.creditCapPercent != null ? ` · credits up to ${provider.creditCapPercent}% a month` : ''}</dd>
      </dl>
      <ErrorNotice message={error} />
      <SuccessNotice message={notice} />
      {isAdmin && (
        <div className="mt-3 flex flex-wrap gap-2">
          <EditPauseResume name={provider.name} active={provider.active} busy={busy} onEdit={onEdit}
            onPause={() => act('disable', 'Paused: no new leads go to this provider.')}
            onResume={() => act('enable', 'Resumed: this provider receives leads again.')} />
          {provider.licenceNumber && !provider.verified && (
            <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={licenceChecked}
              aria-label={`Mark the licence of ${provider.name} checked`}>
              <BadgeCheck size={16} aria-hidden="true" /> Mark licence checked
            </button>
          )}
          {provider.portalAccount === 'invited' && (
            <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={inviteAgain}
              aria-label={`Send ${provider.name} the invitation again`}>
              <MailPlus size={16} aria-hidden="true" /> Invite again
            </button>
          )}
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
  const [invited, setInvited] = useState<string | null>(null)
  const saved = () => {
    setEditing(null)
    reload()
  }
  return (
    <>
      <PageTitle actions={isAdmin && editing === null && (
        <span className="flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} onClick={() => { setInvited(null); setEditing('invite') }}>
            <UserPlus size={16} aria-hidden="true" /> Invite provider
          </button>
          <button type="button" className={buttonClass('secondary')} onClick={() => setEditing('new')}>
            <Plus size={16} aria-hidden="true" /> Add provider
          </button>
        </span>
      )}>Providers</PageTitle>
      <div className="mb-4"><SuccessNotice message={invited} /></div>
      {editing === 'invite' && (
        <div className="mb-4">
          <InviteForm onCancel={() => setEditing(null)} onInvited={(message) => { setInvited(message); saved() }} />
        </div>
      )}
      {editing !== null && editing !== 'invite' && (
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
