// The dashboard's quality panel: the quality gate's reasons by source, over the dashboard's range and
// filters (GET /quality/measures); the whole picture is on the quality page.
import { Link } from 'react-router'
import { query } from '../api'
import { PATHS } from '../paths'
import type { QualityMeasures } from '../quality/quality-page'
import { reasonLabel } from '../quality/reasons'
import { Card, ErrorNotice, formatPct, Loading } from '../ui'
import { useApi } from '../use-api'

// The sources with the most leads; the quality page lists them all.
const SOURCES_SHOWN = 8

export function QualityPanel({ filters }: { filters: Record<string, string> }) {
  const { data, error, loading } = useApi<QualityMeasures>(`/quality/measures${query(filters)}`)
  const sources = data?.bySource.slice(0, SOURCES_SHOWN) ?? []
  return (
    <Card title="Quality: reasons by source" actions={
      <Link to={`${PATHS.quality}${query(filters)}`} className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
        All measures
      </Link>
    }>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && sources.length === 0 && <p className="text-sm text-slate-500">No leads in this range.</p>}
      {sources.length > 0 && (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {sources.map((row) => (
            <li key={row.key} className="rounded-md bg-slate-50 p-3 text-sm">
              <p className="font-semibold break-words">{row.label}</p>
              <p className="text-xs text-slate-600 tabular-nums">
                {row.leads} {row.leads === 1 ? 'lead' : 'leads'} · held {formatPct(row.heldPct)} · returned {formatPct(row.returnedPct)}
              </p>
              {row.reasons.length === 0 ? <p className="mt-1 text-xs text-slate-500">No reasons flagged.</p> : (
                <ol className="mt-1 space-y-0.5">
                  {row.reasons.slice(0, 3).map((r) => (
                    <li key={r.reason} className="flex justify-between gap-2">
                      <span className="min-w-0 break-words">{reasonLabel(r.reason)}</span>
                      <span className="tabular-nums">{r.leads}</span>
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
