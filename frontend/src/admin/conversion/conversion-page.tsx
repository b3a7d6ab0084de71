// What buyers' leads became (docs/console-api.md, "Conversion"): the sales of a range of days by
// buyer, service or source, each under its newest feedback, and the approved returns.
import { query } from '../api'
import { DateFilter, SelectFilter, useFilters } from '../filters'
import { useApi } from '../use-api'
import { ErrorNotice, Loading, PageTitle } from '../ui'

/** One row of GET /api/console/conversion (console/conversion.py: ConversionRow). */
type ConversionRow = {
  key: string
  label: string
  sold: number
  withFeedback: number
  contacted: number
  appointment: number
  quoted: number
  soldOn: number
  bad: number
  returned: number
}

const GROUPS = [
  { value: 'buyer', label: 'Buyer' },
  { value: 'service', label: 'Service' },
  { value: 'source', label: 'Source' },
]

const COUNTS: { key: Exclude<keyof ConversionRow, 'key' | 'label' | 'sold'>; label: string }[] = [
  { key: 'withFeedback', label: 'With feedback' },
  { key: 'contacted', label: 'Contacted' },
  { key: 'appointment', label: 'Appointment' },
  { key: 'quoted', label: 'Quoted' },
  { key: 'soldOn', label: 'Sold (by the buyer)' },
  { key: 'bad', label: 'Bad' },
  { key: 'returned', label: 'Returned' },
]

/** "12 (40%)": a count and its share of the leads sold. */
function share(count: number, sold: number): string {
  return sold ? `${count} (${Math.round((count / sold) * 100)}%)` : String(count)
}

export default function ConversionPage() {
  const filters = useFilters(['by', 'from', 'to'])
  const by = GROUPS.some((g) => g.value === filters.values.by) ? filters.values.by : 'buyer'
  // An empty range asks the server for its default (the last 30 days).
  const { data, error, loading } = useApi<{ items: ConversionRow[] }>(
    `/conversion${query({ by, from: filters.values.from, to: filters.values.to })}`)
  const heading = GROUPS.find((g) => g.value === by)?.label ?? 'Buyer'
  return (
    <>
      <PageTitle>Conversion</PageTitle>
      <p className="mb-4 max-w-2xl text-sm text-slate-600">
        What the leads buyers bought became, as the buyers tell it: each sale of the range once, under its newest
        feedback. Returned counts the approved returns.
      </p>
      <form className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3" onSubmit={(e) => e.preventDefault()}
        aria-label="Conversion filters">
        <SelectFilter label="By" name="by" filters={filters}>
          {GROUPS.map((g) => <option key={g.value} value={g.value}>{g.label}</option>)}
        </SelectFilter>
        <DateFilter label="Sold from" name="from" filters={filters} />
        <DateFilter label="Sold to" name="to" filters={filters} />
      </form>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">No sales in this range.</p>}
      {data && data.items.length > 0 && (
        // Wide: it scrolls sideways inside its box on a phone instead of widening the page.
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" aria-busy={loading}>
          <table className="w-full min-w-[56rem] text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">{heading}</th>
                <th scope="col" className="px-3 py-2 text-right font-medium">Leads sold</th>
                {COUNTS.map((c) => <th key={c.key} scope="col" className="px-3 py-2 text-right font-medium">{c.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr key={row.key || 'none'} className="border-t border-slate-100">
                  <th scope="row" className="max-w-[16rem] px-3 py-2 font-medium break-words">{row.label}</th>
                  <td className="px-3 py-2 text-right tabular-nums">{row.sold}</td>
                  {COUNTS.map((c) => <td key={c.key} className="px-3 py-2 text-right tabular-nums">{share(row[c.key], row.sold)}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
