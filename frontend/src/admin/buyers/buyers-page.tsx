import { History, Plus, Radio, Send, Users } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { request } from '../api'
import { ActiveBadge, EditPauseResume, useCardAction } from '../directory-parts'
import { PATHS } from '../paths'
import { useOperator } from '../session'
import type { Buyer, BuyerBid, PingResult, PostResult } from '../types'
import { useApi } from '../use-api'
import { buttonClass, Card, ErrorNotice, formatDollarAmount, Loading, PageTitle, SuccessNotice } from '../ui'
import { BuyerForm } from './buyer-form'
import { BuyerPeople } from './buyer-people'
import { PartnerLists } from './partner-lists'

type Editing = Buyer | 'new' | null

const status = (httpStatus: number | null) => (httpStatus === null ? 'no answer' : `HTTP ${httpStatus}`)

function describePing(r: PingResult) {
  const answer = r.outcome === 'bid' ? `Bid ${formatDollarAmount(r.bid)}` : `Pass: ${r.reason ?? 'no bid'}`
  return `${answer} · ${status(r.httpStatus)} · ${r.durationMs} ms`
}

function describePost(r: PostResult) {
  return [`Test post ${r.outcome}`, status(r.httpStatus), `${r.durationMs} ms`, r.error].filter(Boolean).join(' · ')
}

function RecentBids({ buyer }: { buyer: Buyer }) {
  const { data, error, loading } = useApi<{ items: BuyerBid[] }>(`/buyers/${encodeURIComponent(buyer.id)}/bids?limit=10`)
  return (
    <div className="mt-3" aria-label={`Recent bids of ${buyer.name}`} role="region">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">Recent bids</h3>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">No bids or passes yet.</p>}
      {data && data.items.length > 0 && (
        <ol className="divide-y divide-slate-100 text-sm">
          {data.items.map((bid) => (
            <li key={`${bid.leadId}-${bid.kind}`} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
              <Link to={PATHS.lead(bid.leadId)} className="inline-flex min-h-11 items-center text-brand-700 underline">
                {bid.service} · {bid.state ?? '—'}
              </Link>
              <span className="min-w-0 break-words">
                {bid.kind === 'bid' ? <strong>{formatDollarAmount(bid.amount)}</strong> : <>Pass: {bid.reason ?? 'no bid'}</>}
                <span className="text-slate-500"> · {bid.atMs} ms</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

function BuyerCard({ buyer, isAdmin, onEdit, onChanged }: {
  buyer: Buyer
  isAdmin: boolean
  onEdit: () => void
  onChanged: () => void
}) {
  const { run, notice, error, busy } = useCardAction()
  const [showBids, setShowBids] = useState(false)
  const [showPeople, setShowPeople] = useState(false)
  const path = `/buyers/${encodeURIComponent(buyer.id)}`

  const setActive = (action: 'pause' | 'resume', done: string) =>
    run(() => request<Buyer>('POST', `${path}/${action}`), () => {
      onChanged()
      return [true, done]
    })
  const testPing = () => run(() => request<PingResult>('POST', `${path}/test-ping`),
    (r) => [r.outcome === 'bid', `Test ping: ${describePing(r)}`])
  const testPost = () => run(() => request<PostResult>('POST', `${path}/test-post`),
    (r) => [r.outcome === 'delivered', describePost(r)])

  const area = [buyer.states.join(', '), buyer.zips.join(', ')].filter(Boolean).join(' · ')
  const limits = [buyer.dailyCap !== null && `${buyer.dailyCap} a day`,
    buyer.monthlyBudget !== null && `${formatDollarAmount(buyer.monthlyBudget)} a month`].filter(Boolean).join(', ')
  return (
    <Card title={buyer.name} actions={<ActiveBadge active={buyer.active} />}>
      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Mode</dt>
        <dd>{buyer.mode === 'ping-post' ? 'Ping-post' : 'Fixed price'}, {buyer.exclusive ? 'exclusive' : 'shared'}</dd>
        <dt className="text-slate-500">Price</dt><dd className="tabular-nums">{buyer.mode === 'ping-post' ? 'its bid' : formatDollarAmount(buyer.price)}</dd>
        <dt className="text-slate-500">Caps</dt><dd>{limits || 'none'}</dd>
        <dt className="text-slate-500">Hours</dt><dd className="min-w-0 break-words">{buyer.hours || 'always'}</dd>
        <dt className="text-slate-500">Services</dt><dd className="min-w-0 break-words">{buyer.services.join(', ') || 'all'}</dd>
        <dt className="text-slate-500">Area</dt><dd className="min-w-0 break-words">{area || 'everywhere'}</dd>
        <dt className="text-slate-500">Bought</dt>
        <dd className="tabular-nums">{buyer.leadsToday} today, {formatDollarAmount(buyer.spentThisMonth)} this month</dd>
        {buyer.pingUrl && <><dt className="text-slate-500">Ping URL</dt><dd className="min-w-0 break-all">{buyer.pingUrl}</dd></>}
        <dt className="text-slate-500">Post URL</dt><dd className="min-w-0 break-all">{buyer.postUrl}</dd>
      </dl>
      <div className="mt-2 space-y-2">
        <ErrorNotice message={error} />
        <SuccessNotice message={notice} />
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {isAdmin && (
          <>
            <EditPauseResume name={buyer.name} active={buyer.active} busy={busy} onEdit={onEdit}
              onPause={() => setActive('pause', 'Paused: this buyer is not pinged or posted to.')}
              onResume={() => setActive('resume', 'Resumed: this buyer bids for leads again.')} />
            {buyer.pingUrl && (
              <button type="button" className={buttonClass('secondary')} disabled={busy} aria-label={`Test ping ${buyer.name}`}
                onClick={testPing}>
                <Radio size={16} aria-hidden="true" /> Test ping
              </button>
            )}
            <button type="button" className={buttonClass('secondary')} disabled={busy} aria-label={`Test post to ${buyer.name}`}
              onClick={testPost}>
              <Send size={16} aria-hidden="true" /> Test post
            </button>
          </>
        )}
        <button type="button" className={buttonClass('secondary')} aria-expanded={showBids}
          aria-label={`${showBids ? 'Hide' : 'Show'} recent bids of ${buyer.name}`} onClick={() => setShowBids((v) => !v)}>
          <History size={16} aria-hidden="true" /> {showBids ? 'Hide bids' : 'Recent bids'}
        </button>
        <button type="button" className={buttonClass('secondary')} aria-expanded={showPeople}
          aria-label={`${showPeople ? 'Hide' : 'Show'} people of ${buyer.name}`} onClick={() => setShowPeople((v) => !v)}>
          <Users size={16} aria-hidden="true" /> {showPeople ? 'Hide people' : 'People'}
        </button>
      </div>
      {showBids && <RecentBids buyer={buyer} />}
      {showPeople && <BuyerPeople buyerId={buyer.id} buyerName={buyer.name} isAdmin={isAdmin} />}
    </Card>
  )
}

export default function BuyersPage() {
  const { isAdmin } = useOperator()
  const { data, error, loading, reload } = useApi<{ items: Buyer[] }>('/buyers')
  const [editing, setEditing] = useState<Editing>(null)
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null)
  const saved = (buyer: Buyer & { secret?: string }) => {
    setEditing(null)
    setSecret(buyer.secret ? { name: buyer.name, secret: buyer.secret } : null)
    reload()
  }
  return (
    <>
      <PageTitle actions={isAdmin && editing === null && (
        <button type="button" className={buttonClass('primary')} onClick={() => { setEditing('new'); setSecret(null) }}>
          <Plus size={16} aria-hidden="true" /> Add buyer
        </button>
      )}>Buyers</PageTitle>
      {secret && (
        <div role="status" className="mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-900">
          <p>Added {secret.name}. Its signing secret, shown this once (give it to the buyer to check each ping and post):</p>
          <code className="mt-1 block break-all font-mono text-xs">{secret.secret}</code>
        </div>
      )}
      {editing !== null && (
        <div className="mb-4">
          <BuyerForm key={editing === 'new' ? 'new' : editing.id} buyer={editing === 'new' ? null : editing}
            onSaved={saved} onCancel={() => setEditing(null)} />
        </div>
      )}
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">No buyers yet.</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {data?.items.map((b) => (
          <BuyerCard key={b.id} buyer={b} isAdmin={isAdmin} onChanged={reload}
            onEdit={() => { setEditing(b); setSecret(null); window.scrollTo({ top: 0 }) }} />
        ))}
      </div>
      {/* Read again whenever a buyer's name or state changes: that may have published a new list. */}
      <PartnerLists key={data?.items.map((b) => `${b.name}:${b.active}`).join('|') ?? ''} />
    </>
  )
}
