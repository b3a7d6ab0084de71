// Leads the quality gate held (docs/quality.md, "Review in the console"): newest first, each with its
// score and reasons; an admin releases one to routing (sold and offered as if it had passed) or rejects
// it with a note (sold to nobody), after confirming. The consumer is told the request is being reviewed.
import { Check, X } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import type { components } from '../../lib/api-schema'
import { query, request, type ConsoleError } from '../api'
import { useCatalogOptions } from '../catalog-options'
import { useCardAction } from '../directory-parts'
import { SelectFilter, SourceFilter, useFilters } from '../filters'
import { PATHS } from '../paths'
import { ReasonList, ScoreBadge } from '../quality/reason-list'
import { useOperator } from '../session'
import { CardNotices, NoteForm } from '../status-list'
import { buttonClass, Card, ErrorNotice, formatTime, Loading, PageTitle, StatusBadge } from '../ui'
import { useApi, usePagedList } from '../use-api'
import { waited } from '../use-review'

type Schemas = components['schemas']
export type HeldLead = Schemas['HeldLead']
type HeldLeadPage = Schemas['HeldLeadPage']
type Decision = Schemas['HeldLeadDecision']
type Deciding = 'release' | 'reject' | null

/** One held lead; a decision (or a colleague's, met as a 409) stays in sight until the list is reloaded. */
function HeldCard({ lead, isAdmin }: { lead: HeldLead; isAdmin: boolean }) {
  const [status, setStatus] = useState('held')
  const [deciding, setDeciding] = useState<Deciding>(null)
  const [note, setNote] = useState('')
  const { run, notice, error, busy } = useCardAction()

  const decide = () => {
    const releasing = deciding === 'release'
    void run(async () => {
      try {
        return await request<Decision>('POST', `/held-leads/${encodeURIComponent(lead.id)}/${releasing ? 'release' : 'reject'}`,
          releasing ? (note.trim() ? { note } : {}) : { note })
      } catch (failure) {
        // Decided meanwhile by someone else: say so, and offer nothing more.
        const refused = failure as ConsoleError
        if (refused.status === 409) setStatus(refused.fields.qualityStatus ?? 'decided')
        throw failure
      }
    }, (decided) => {
      setStatus(decided.qualityStatus)
      setDeciding(null)
      return [true, releasing ? 'Released: routing sells and offers it now.' : 'Rejected: it goes to nobody.']
    })
  }

  return (
    <Card title={`Lead ${lead.reference}`} actions={<span className="flex items-center gap-2"><ScoreBadge score={lead.score} /><StatusBadge status={status} /></span>}>
      <dl className="grid grid-cols-[5.5rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Service</dt><dd className="min-w-0 break-words">{lead.service} <span className="text-slate-500">({lead.vertical})</span></dd>
        <dt className="text-slate-500">Source</dt><dd className="min-w-0 break-words">{lead.source}</dd>
        <dt className="text-slate-500">State</dt><dd>{lead.state ?? '—'}</dd>
        <dt className="text-slate-500">Received</dt><dd className="min-w-0 break-words">{formatTime(lead.createdAt)} ({waited(lead.createdAt)} ago)</dd>
        <dt className="text-slate-500">Reasons</dt><dd className="min-w-0"><ReasonList reasons={lead.reasons} /></dd>
      </dl>
      <Link to={PATHS.lead(lead.id)} className="mt-2 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
        Open the lead
      </Link>
      <CardNotices error={error} notice={notice} />
      {isAdmin && status === 'held' && !deciding && (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass('primary')} onClick={() => setDeciding('release')}
            aria-label={`Release lead ${lead.reference}`}>
            <Check size={16} aria-hidden="true" /> Release
          </button>
          <button type="button" className={buttonClass('danger')} onClick={() => setDeciding('reject')}
            aria-label={`Reject lead ${lead.reference}`}>
            <X size={16} aria-hidden="true" /> Reject
          </button>
        </div>
      )}
      {deciding && status === 'held' && (
        <NoteForm name={`${deciding === 'release' ? 'Release' : 'Reject'} lead ${lead.reference}`}
          label={deciding === 'release' ? 'Note (optional, kept in the audit log)' : 'Why it is rejected (kept in the audit log)'}
          required={deciding === 'reject'} value={note} onChange={setNote} busy={busy}
          submitLabel={deciding === 'release' ? 'Release to routing' : 'Reject: sell to nobody'}
          variant={deciding === 'release' ? 'primary' : 'danger'} onSubmit={decide} onCancel={() => setDeciding(null)} />
      )}
    </Card>
  )
}

export default function HeldLeadsPage() {
  const { isAdmin } = useOperator()
  const filters = useFilters(['service', 'source'])
  const { services } = useCatalogOptions()
  const filterQuery = query(filters.values)
  const list = usePagedList<HeldLead>(`/held-leads${filterQuery}`)
  // The count of every page: one held lead is enough to ask for it.
  const counted = useApi<HeldLeadPage>(`/held-leads${query({ ...filters.values, limit: '1' })}`)
  const total = counted.data?.total
  return (
    <>
      <PageTitle>Held leads</PageTitle>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        The quality gate holds a lead whose score is under the hold threshold: nobody is pinged or offered it, and
        the consumer is told the request is being reviewed. Release sends it to routing as if it had passed; Reject
        sells it to nobody. Both are on the audit log with your note.
      </p>
      <form aria-label="Held lead filters" className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:max-w-2xl" onSubmit={(e) => e.preventDefault()}>
        <SelectFilter label="Service" name="service" filters={filters}>
          <option value="">All services</option>
          {services.map((s) => <option key={`${s.vertical}/${s.id}`} value={s.id}>{s.name}</option>)}
        </SelectFilter>
        <SourceFilter filters={filters} />
      </form>
      {total !== undefined && (
        <p role="status" className="mb-3 text-sm text-slate-700">
          <span className="font-semibold tabular-nums">{total}</span> {total === 1 ? 'lead waits' : 'leads wait'} for review.
        </p>
      )}
      <ErrorNotice message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="text-sm text-slate-500">No lead is held.</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {list.items.map((lead) => <HeldCard key={lead.id} lead={lead} isAdmin={isAdmin} />)}
      </div>
      {list.loading && <Loading />}
      {list.nextCursor && !list.loading && (
        <button type="button" className={buttonClass('secondary', 'mt-4')} onClick={list.loadMore}>Load more</button>
      )}
    </>
  )
}
