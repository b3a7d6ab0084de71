import { Download } from 'lucide-react'
import { useState, type ReactElement } from 'react'
import { useSearchParams } from 'react-router'
import { buttonClasses } from '../../components/button-classes'
import { useCatalogChoices } from '../catalog'
import { LEAD_STATUSES } from '../labels'
import { EmptyNote, ErrorNotice, inputClass, Loading, PageTitle } from '../ui'
import { anyFilter, csvHref, type FilterKey, filtersFrom, listPath } from './lead-filters'
import { LeadCards, LeadTable } from './lead-list'
import { useLeadEvents } from './use-lead-events'
import { useLeads } from './use-leads'

/** The leads bought, newest first, filtered by date, service, state and status; new ones appear live. */
export default function LeadsPage() {
  const [params, setParams] = useSearchParams()
  const filters = filtersFrom(params)
  const leads = useLeads(listPath(filters))
  const [announcement, setAnnouncement] = useState('')

  useLeadEvents({
    onBought: (lead) => {
      setAnnouncement(`New lead bought: ${lead.reference}`)
      void leads.refreshNewest()
    },
    onConnect: () => void leads.refreshNewest(),
  })

  const setFilter = (key: FilterKey, value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(key, value)
    else next.delete(key)
    setParams(next, { replace: true })
  }

  return (
    <div className="space-y-4">
      <PageTitle actions={
        <a href={csvHref(filters)} download className={buttonClasses('secondary', 'w-full sm:w-auto')}>
          <Download size={18} aria-hidden="true" /> Download CSV
        </a>
      }>Leads bought</PageTitle>
      {/* Said politely, once, when a lead is bought while the page is open. */}
      <p aria-live="polite" className="text-sm font-semibold text-green-800 empty:hidden">{announcement}</p>
      <FilterBar filters={filters} setFilter={setFilter} clear={() => setParams({}, { replace: true })} />
      <ErrorNotice message={leads.error} />
      {leads.items.length ? (
        <>
          <LeadCards leads={leads.items} fresh={leads.fresh} />
          <LeadTable leads={leads.items} fresh={leads.fresh} />
        </>
      ) : leads.loading || leads.error ? null : (
        <EmptyNote>
          {anyFilter(filters) ? 'No leads match these filters.' : 'No leads bought yet. Each lead you buy shows here as soon as its post is taken.'}
        </EmptyNote>
      )}
      {leads.loading ? <Loading label="Loading leads…" /> : null}
      {leads.nextCursor && !leads.loading ? (
        <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={leads.loadMore}>Load more</button>
      ) : null}
    </div>
  )
}

function FilterBar({ filters, setFilter, clear }: {
  filters: ReturnType<typeof filtersFrom>
  setFilter: (key: FilterKey, value: string) => void
  clear: () => void
}) {
  const { services, states } = useCatalogChoices()
  const field = (key: FilterKey, label: string, control: ReactElement) => (
    <div className="min-w-0 text-sm">
      <label htmlFor={`filter-${key}`} className="mb-1 block font-semibold text-slate-800">{label}</label>
      {control}
    </div>
  )
  const select = (key: FilterKey, all: string, options: { value: string; label: string }[]) => (
    <select id={`filter-${key}`} className={inputClass} value={filters[key]} onChange={(e) => setFilter(key, e.currentTarget.value)}>
      <option value="">{all}</option>
      {/* A value from the address that the catalogue does not list is still shown as chosen. */}
      {filters[key] && !options.some((option) => option.value === filters[key]) ? <option value={filters[key]}>{filters[key]}</option> : null}
      {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
    </select>
  )
  const date = (key: FilterKey) => (
    <input id={`filter-${key}`} type="date" className={inputClass} value={filters[key]} onChange={(e) => setFilter(key, e.currentTarget.value)} />
  )
  return (
    <form aria-label="Lead filters" onSubmit={(event) => event.preventDefault()}
      className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm md:grid-cols-[repeat(5,minmax(0,1fr))_auto] md:items-end">
      {field('from', 'Bought from', date('from'))}
      {field('to', 'Bought until', date('to'))}
      {field('service', 'Service', select('service', 'All services', services))}
      {field('state', 'State', select('state', 'All states', states))}
      <div className="col-span-2 md:col-span-1">
        {field('status', 'Status', select('status', 'Any status', LEAD_STATUSES))}
      </div>
      <button type="button" className={buttonClasses('secondary', 'col-span-2 md:col-span-1 md:min-h-11 md:py-2')} disabled={!anyFilter(filters)}
        onClick={clear}>
        Clear filters
      </button>
    </form>
  )
}
