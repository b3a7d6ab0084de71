// Filters kept in the address bar, so a reload or a shared link shows the same view.
import { SlidersHorizontal } from 'lucide-react'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { useCatalogOptions } from './catalog-options'
import { buttonClass, Field, inputClass } from './ui'

export function useFilters(keys: readonly string[]) {
  const [params, setParams] = useSearchParams()
  // Two changes before the next render (one filter narrowing another) build on each other
  // instead of the second undoing the first.
  const latest = useRef(params)
  useEffect(() => {
    latest.current = params
  }, [params])
  const values = Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ''])) as Record<string, string>
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(latest.current)
    if (value) next.set(key, value)
    else next.delete(key)
    latest.current = next
    setParams(next, { replace: true })
  }
  return { values, set }
}

type Filters = ReturnType<typeof useFilters>

export function SelectFilter({ label, name, filters, children }: {
  label: string
  name: string
  filters: Filters
  children: ReactNode
}) {
  return (
    <Field label={label}>
      <select className={inputClass} value={filters.values[name]} onChange={(e) => filters.set(name, e.currentTarget.value)}>
        {children}
      </select>
    </Field>
  )
}

/** Vertical, service and state: the filters every lead view shares. */
export function CatalogFilters({ filters }: { filters: Filters }) {
  const { verticals, services, states } = useCatalogOptions()
  const vertical = filters.values.vertical
  return (
    <>
      <SelectFilter label="Vertical" name="vertical" filters={filters}>
        <option value="">All verticals</option>
        {verticals.map((v) => <option key={v} value={v}>{v}</option>)}
      </SelectFilter>
      <SelectFilter label="Service" name="service" filters={filters}>
        <option value="">All services</option>
        {services.filter((s) => !vertical || s.vertical === vertical).map((s) => (
          <option key={`${s.vertical}/${s.id}`} value={s.id}>{s.name}</option>
        ))}
      </SelectFilter>
      <SelectFilter label="State" name="state" filters={filters}>
        <option value="">All states</option>
        {states.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
      </SelectFilter>
    </>
  )
}

export function DateFilter({ label, name, filters }: { label: string; name: string; filters: Filters }) {
  return (
    <Field label={label}>
      <input type="date" className={inputClass} value={filters.values[name]}
        onChange={(e) => filters.set(name, e.currentTarget.value)} />
    </Field>
  )
}

/** The source a lead came from (subid1, or "website"), typed: the pages that count or list by it. */
export function SourceFilter({ filters }: { filters: Filters }) {
  return (
    <Field label="Source">
      <input className={inputClass} value={filters.values.source} placeholder="website, subid1…"
        onChange={(e) => filters.set('source', e.currentTarget.value)} />
    </Field>
  )
}

/** From, to, the catalogue's three and the source: the filters of the pages that count leads over a range. */
export function RangeFilters({ filters }: { filters: Filters }) {
  return (
    <>
      <DateFilter label="From" name="from" filters={filters} />
      <DateFilter label="To" name="to" filters={filters} />
      <CatalogFilters filters={filters} />
      <SourceFilter filters={filters} />
    </>
  )
}

/** A page's filter form. On a phone it folds behind one button, so the results are in sight as the
 * page opens (it starts open when a filter is already set); wider screens always show it. */
export function FilterPanel({ label, active, className, children }: {
  label: string
  /** How many of its filters are set. */
  active: number
  className: string
  children: ReactNode
}) {
  const [open, setOpen] = useState(active > 0)
  const id = useId()
  return (
    <>
      <button type="button" className={buttonClass('secondary', 'mb-3 md:hidden')} aria-expanded={open} aria-controls={id}
        onClick={() => setOpen(!open)}>
        <SlidersHorizontal size={16} aria-hidden="true" /> Filters{active > 0 && ` (${active} set)`}
      </button>
      <form id={id} aria-label={label} className={`${open ? 'grid' : 'hidden'} md:grid ${className}`}
        onSubmit={(e) => e.preventDefault()}>
        {children}
      </form>
    </>
  )
}
