// Which traffic is bad (docs/quality.md, "Measures"): per source and per service over a range of days,
// the leads, the shares the quality gate held, operators rejected and buyers returned, and why.
import type { components } from '../../lib/api-schema'
import { query } from '../api'
import { RangeFilters, useFilters } from '../filters'
import { Card, ErrorNotice, formatPct, Loading, PageTitle, Stat } from '../ui'
import { useApi } from '../use-api'
import { reasonLabel, returnReasonLabel } from './reasons'

type Schemas = components['schemas']
export type QualityMeasures = Schemas['QualityMeasures']
export type MeasureRow = Schemas['MeasureRow']

const KEYS = ['from', 'to', 'vertical', 'service', 'state', 'source'] as const

/** "42.9% (3)": a share of the row's leads, with its count. */
function Share({ pct, count }: { pct: number; count: number }) {
  return <span className="tabular-nums">{formatPct(pct)} <span className="text-slate-500">({count})</span></span>
}

/** The row's reasons: how many leads carried each, and how many of those were held, rejected, returned. */
export function TopReasons({ row }: { row: MeasureRow }) {
  if (row.reasons.length === 0 && row.returnReasons.length === 0) return <span className="text-slate-500">none</span>
  return (
    <ul className="space-y-0.5">
      {row.reasons.map((r) => (
        <li key={r.reason}>
          <span className="font-medium">{reasonLabel(r.reason)}</span>{' '}
          <span className="tabular-nums text-slate-600">{r.leads}: {r.held} held, {r.rejected} rejected, {r.returned} returned</span>
        </li>
      ))}
      {row.returnReasons.length > 0 && (
        <li className="text-slate-600">
          Returned as: {row.returnReasons.map((r) => `${returnReasonLabel(r.key)} ${r.count}`).join(', ')}
        </li>
      )}
    </ul>
  )
}

function MeasureTable({ title, first, rows }: { title: string; first: string; rows: MeasureRow[] }) {
  return (
    <Card title={title}>
      {rows.length === 0 ? <p className="text-sm text-slate-500">No leads in this range.</p> : (
        // Scrolls sideways inside its box on a phone instead of widening the page.
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" style={{ minWidth: '52rem' }}>
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                {[first, 'Leads', 'Held', 'Rejected', 'Returned', 'Reasons'].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">{h}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} className="border-t border-slate-100 align-top">
                  <th scope="row" className="px-3 py-2 font-medium break-words">{row.label}</th>
                  <td className="px-3 py-2 tabular-nums">{row.leads}</td>
                  <td className="px-3 py-2"><Share pct={row.heldPct} count={row.held} />
                    {row.waiting > 0 && <span className="block text-xs text-slate-500">{row.waiting} waiting</span>}</td>
                  <td className="px-3 py-2"><Share pct={row.rejectedPct} count={row.rejected} /></td>
                  <td className="px-3 py-2"><Share pct={row.returnedPct} count={row.returned} /></td>
                  <td className="px-3 py-2"><TopReasons row={row} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}

export default function QualityPage() {
  const filters = useFilters(KEYS)
  const { data, error, loading } = useApi<QualityMeasures>(`/quality/measures${query(filters.values)}`)
  const total = data?.total
  return (
    <>
      <PageTitle>Lead quality</PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        The leads that came in over the range, by source and by service: the share the quality gate held (waiting
        for review or decided since), the share operators rejected, and the share buyers returned (a return waiting
        or approved). Each share is of all the row&apos;s leads.
      </p>
      <form className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" onSubmit={(e) => e.preventDefault()}
        aria-label="Quality filters">
        <RangeFilters filters={filters} />
      </form>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && total && (
        <div className="space-y-6" aria-busy={loading}>
          <p className="text-sm text-slate-600">{data.range.from} to {data.range.to}</p>
          <Card title="All leads">
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-6">
              <Stat label="Leads" value={total.leads} />
              <Stat label="Judged by the gate" value={total.judged} />
              <Stat label="Held" value={formatPct(total.heldPct)} />
              <Stat label="Waiting for review" value={total.waiting} />
              <Stat label="Rejected" value={formatPct(total.rejectedPct)} />
              <Stat label="Returned" value={formatPct(total.returnedPct)} />
            </div>
            <h3 className="mt-4 mb-1 text-sm font-semibold">Reasons</h3>
            <div className="text-sm"><TopReasons row={total} /></div>
          </Card>
          <MeasureTable title="By source" first="Source" rows={data.bySource} />
          <MeasureTable title="By service" first="Service" rows={data.byService} />
        </div>
      )}
    </>
  )
}
