import { PagedTable } from './paged-table'
import type { AuditEntry } from './types'
import { usePagedList } from './use-api'
import { formatTime, PageTitle } from './ui'

function detailText(detail: unknown): string {
  if (detail === null || detail === undefined || detail === '') return ''
  return typeof detail === 'string' ? detail : JSON.stringify(detail)
}

// Read-only by design: the server offers no way to change or delete an entry.
export default function AuditPage() {
  const list = usePagedList<AuditEntry>('/audit')
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <PagedTable list={list} minWidth="44rem" empty="Nothing recorded yet."
        headers={['When', 'Operator', 'Action', 'Target', 'Address', 'Detail']}
        row={(entry, i) => (
          <tr key={`${entry.at}-${i}`} className="border-t border-slate-100 align-top">
            <td className="px-3 py-2 whitespace-nowrap">{formatTime(entry.at)}</td>
            <td className="px-3 py-2 break-all">{entry.operator ?? '—'}</td>
            <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
            <td className="px-3 py-2 break-all">{entry.target ?? '—'}</td>
            <td className="px-3 py-2">{entry.ip ?? '—'}</td>
            <td className="max-w-xs px-3 py-2 text-xs break-words text-slate-600">{detailText(entry.detail)}</td>
          </tr>
        )} />
    </>
  )
}
