import { buttonClasses } from '../../components/button-classes'
import { usePagedList } from '../api'
import { formatDateTime } from '../format'
import type { AuditEntry } from '../types'
import { Card, ErrorNotice, Loading } from '../ui'
import { actionText, detailText } from './audit-detail'

/** Every change to the buyer's settings, keys and returns: when, who, what. */
export function AuditCard() {
  const log = usePagedList<AuditEntry>('/audit?limit=25')
  return (
    <Card title="Audit log" id="audit-heading">
      <ErrorNotice message={log.error} />
      {!log.loading && !log.error && log.items.length === 0 ? <p className="text-sm text-slate-600">No changes yet.</p> : null}
      {log.items.length ? (
        <ol className="divide-y divide-slate-200">
          {log.items.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="grid gap-x-4 py-2 text-sm sm:grid-cols-[12rem_14rem_1fr]">
              <span className="text-slate-600">{formatDateTime(entry.at)}</span>
              <span className="min-w-0 break-all font-medium text-slate-900">{entry.who}</span>
              <span className="min-w-0 break-words text-slate-800">
                <strong className="font-semibold">{actionText(entry.action)}</strong>
                {detailText(entry.detail) ? <span className="text-slate-700">: {detailText(entry.detail)}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {log.loading ? <Loading /> : null}
      {log.nextCursor && !log.loading ? (
        <button type="button" className={buttonClasses('secondary', 'mt-3 w-full sm:w-auto')} onClick={log.loadMore}>Load more</button>
      ) : null}
    </Card>
  )
}
