import type { ReactNode } from 'react'
import type { PagedList } from './use-api'
import { buttonClass, ErrorNotice, Loading } from './ui'

/** A cursor-paged list as a table: its error, its empty state, the rows, and "Load more". */
export function PagedTable<T>({ list, headers, minWidth, empty, row }: {
  list: PagedList<T>
  headers: ReactNode[]
  // Wide tables scroll sideways inside their box on a phone instead of widening the page.
  minWidth: string
  empty: string
  row: (item: T, index: number) => ReactNode
}) {
  return (
    <>
      <ErrorNotice message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="py-6 text-sm text-slate-500">{empty}</p>}
      {list.items.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm" style={{ minWidth }}>
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                {headers.map((header, i) => <th key={i} scope="col" className="px-3 py-2 font-medium">{header}</th>)}
              </tr>
            </thead>
            <tbody>{list.items.map(row)}</tbody>
          </table>
        </div>
      )}
      {list.loading && <Loading />}
      {list.nextCursor && !list.loading && (
        <button type="button" className={buttonClass('secondary', 'mt-4')} onClick={list.loadMore}>Load more</button>
      )}
    </>
  )
}
