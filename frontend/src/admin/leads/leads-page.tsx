import { Download, Search } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { formatPhone } from '../../lib/phone'
import { query } from '../api'
import { CatalogFilters, DateFilter, FilterPanel, SelectFilter, useFilters } from '../filters'
import { PagedTable } from '../paged-table'
import { PATHS } from '../paths'
import { ScoreBadge } from '../quality/reason-list'
import { useOperator } from '../session'
import type { LeadRow } from '../types'
import { usePagedList } from '../use-api'
import { buttonClass, Field, formatTime, inputClass, PageTitle, RevokedBadge, StatusBadge } from '../ui'

const KEYS = ['q', 'vertical', 'service', 'state', 'status', 'from', 'to', 'quality', 'scoreMin', 'scoreMax'] as const
// As the server names them (console/leads.py LEAD_STATUSES): from the lead's deliveries.
const STATUSES = ['pending', 'delivered', 'rejected', 'failed', 'skipped', 'unsent']
// The quality gate's verdicts (console/lead_quality.py QUALITY_FILTERS), as an operator reads them.
const QUALITY = [
  { value: 'passed', label: 'Passed' },
  { value: 'held', label: 'Held for review' },
  { value: 'released', label: 'Released after review' },
  { value: 'rejected', label: 'Rejected after review' },
  { value: 'unjudged', label: 'Not judged yet' },
]

/** A score bound (0 to 100, both included); empty for none. */
function ScoreFilter({ label, name, filters }: { label: string; name: string; filters: ReturnType<typeof useFilters> }) {
  return (
    <Field label={label}>
      <input type="number" inputMode="numeric" min={0} max={100} step={1} className={inputClass} value={filters.values[name]}
        onChange={(e) => filters.set(name, e.currentTarget.value)} />
    </Field>
  )
}

function LeadCells({ lead }: { lead: LeadRow }) {
  return (
    <>
      <td className="px-3 py-2">
        <Link to={PATHS.lead(lead.id)} className="font-medium whitespace-nowrap text-brand-700 underline underline-offset-2">
          {lead.requestId}
        </Link>
        {/* The reference the consumer is shown and quotes on the phone. */}
        <span className="block font-mono text-sm whitespace-nowrap">Ref {lead.reference}</span>
        <span className="block text-xs text-slate-500">{formatTime(lead.createdAt)}</span>
        {/* In the first column, so a phone shows it without scrolling the table sideways. */}
        {lead.revoked && <span className="mt-1 block"><RevokedBadge at={lead.revokedAt} /></span>}
      </td>
      <td className="px-3 py-2">{lead.service}<span className="block text-xs text-slate-500">{lead.vertical}</span></td>
      <td className="px-3 py-2">{lead.name}<span className="block text-xs text-slate-500">{lead.email}</span></td>
      <td className="px-3 py-2 whitespace-nowrap">{formatPhone(lead.phone)}</td>
      <td className="px-3 py-2">{lead.state} {lead.zip}</td>
      <td className="px-3 py-2 break-words">{lead.source}</td>
      <td className="px-3 py-2">
        <StatusBadge status={lead.status} />
        {lead.isDuplicate && <span className="ml-1 text-xs text-amber-800">duplicate</span>}
        {lead.doNotSell && <span className="ml-1 text-xs text-red-800">do not sell</span>}
      </td>
      <td className="px-3 py-2 whitespace-nowrap">
        <ScoreBadge score={lead.qualityScore} />
        {lead.qualityStatus && <span className="mt-1 block"><StatusBadge status={lead.qualityStatus} /></span>}
      </td>
    </>
  )
}

export default function LeadsPage() {
  const { isAdmin } = useOperator()
  const filters = useFilters(KEYS)
  const [search, setSearch] = useState(filters.values.q)
  const filterQuery = query(filters.values)
  const list = usePagedList<LeadRow>(`/leads${filterQuery}`)

  return (
    <>
      <PageTitle actions={isAdmin && (
        // A plain download: the browser sends the session cookie; the server audits the export.
        <a href={`/api/console/leads.csv${filterQuery}`} className={buttonClass('secondary')} download>
          <Download size={16} aria-hidden="true" /> Export CSV
        </a>
      )}>Leads</PageTitle>
      <form role="search" className="mb-3 flex gap-2" onSubmit={(e) => { e.preventDefault(); filters.set('q', search.trim()) }}>
        <label className="sr-only" htmlFor="lead-search">Search by reference, request id, phone or e-mail</label>
        <input id="lead-search" className={inputClass} type="search" value={search} placeholder="Reference, request id, phone or e-mail"
          onChange={(e) => setSearch(e.currentTarget.value)} />
        <button type="submit" className={buttonClass('primary')}><Search size={16} aria-hidden="true" /> Search</button>
      </form>
      <FilterPanel label="Lead filters" active={KEYS.filter((key) => key !== 'q' && filters.values[key]).length}
        className="mb-4 grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <CatalogFilters filters={filters} />
        <SelectFilter label="Status" name="status" filters={filters}>
          <option value="">Any status</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </SelectFilter>
        <DateFilter label="From" name="from" filters={filters} />
        <DateFilter label="To" name="to" filters={filters} />
        <SelectFilter label="Quality" name="quality" filters={filters}>
          <option value="">Any verdict</option>
          {QUALITY.map((q) => <option key={q.value} value={q.value}>{q.label}</option>)}
        </SelectFilter>
        <ScoreFilter label="Score from" name="scoreMin" filters={filters} />
        <ScoreFilter label="Score to" name="scoreMax" filters={filters} />
      </FilterPanel>
      <PagedTable list={list} minWidth="60rem" empty="No leads match."
        headers={['Request', 'Service', 'Consumer', 'Phone', 'Location', 'Source', 'Status', 'Quality']}
        row={(lead) => <tr key={lead.id} className="border-t border-slate-100"><LeadCells lead={lead} /></tr>} />
    </>
  )
}
