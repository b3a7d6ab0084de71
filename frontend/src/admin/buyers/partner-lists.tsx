import { ChevronDown } from 'lucide-react'
import { Card, ErrorNotice, formatTime, Loading } from '../ui'
import { useApi } from '../use-api'

/** One published marketing-partners list (GET /api/console/partner-lists). */
export interface PartnerListVersion {
  version: string
  publishedAt: string
  partners: string[]
  count: number
}

/**
 * The published marketing-partners lists, newest first: each lead's consent names one of them
 * (its "Partner list version"), and only the companies on that list may be sold or offered the lead.
 */
export function PartnerLists() {
  const { data, error, loading } = useApi<{ items: PartnerListVersion[] }>('/partner-lists')
  return (
    <Card title="Marketing-partners lists" className="mt-6">
      <p className="mb-3 text-sm text-slate-600">
        Consumers see the newest list behind the consent text&apos;s &ldquo;marketing partners&rdquo; link. A new
        list is published whenever the names of the active buyers and providers change; each lead is sold or
        offered only to the companies on the list it consented to.
      </p>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">No list published yet.</p>}
      {data && data.items.length > 0 && (
        <ol className="divide-y divide-slate-100 text-sm" aria-label="Published partner lists">
          {data.items.map((list, index) => (
            <li key={list.version} className="py-2">
              <details className="group">
                <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-x-3 gap-y-1">
                  <ChevronDown size={16} aria-hidden="true" className="shrink-0 -rotate-90 text-slate-500 group-open:rotate-0" />
                  <code className="min-w-0 break-all font-mono text-xs">{list.version}</code>
                  {index === 0 && (
                    <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-semibold text-green-800">current</span>
                  )}
                  <span className="text-slate-500">
                    {formatTime(list.publishedAt)} · {list.count} names
                  </span>
                </summary>
                <ul className="mt-2 grid gap-x-6 gap-y-0.5 text-slate-700 sm:grid-cols-2 lg:grid-cols-3">
                  {list.partners.map((name) => (
                    <li key={name} className="min-w-0 break-words">{name}</li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
        </ol>
      )}
    </Card>
  )
}
