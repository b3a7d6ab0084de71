import { buttonClasses } from '../components/button-classes'
import { usePagedList } from './api'
import { formatDateTime, formatDollars } from './format'
import type { BidRow } from './types'
import { EmptyNote, ErrorNotice, Loading, PageTitle } from './ui'

const RESULT_CLASS: Record<string, string> = {
  won: 'bg-green-100 text-green-800',
  'lost on price': 'bg-amber-100 text-amber-900',
}

function Result({ result }: { result: string }) {
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${RESULT_CLASS[result] ?? 'bg-slate-100 text-slate-700'}`}>
      {result}
    </span>
  )
}

/** Its bid, or why it passed; and the winning price where it lost on price. */
function bidText(bid: BidRow): string {
  const own = bid.bid === null ? 'No bid' : `Bid ${formatDollars(bid.bid)}`
  return bid.winningPrice === null ? own : `${own} · won at ${formatDollars(bid.winningPrice)}`
}

/** The last auctions the buyer took part in, newest first, so it can tune its bids. */
export default function BidsPage() {
  const bids = usePagedList<BidRow>('/bids?limit=50')
  return (
    <div className="space-y-4">
      <PageTitle>Bids</PageTitle>
      <p className="text-sm text-slate-700">
        Every auction you were pinged for: your bid or pass and why, and the winning price when another bid won on price.
      </p>
      <ErrorNotice message={bids.error} />
      {!bids.loading && !bids.error && bids.items.length === 0 ? <EmptyNote>No auctions yet: you have not been pinged for a lead.</EmptyNote> : null}
      {bids.items.length ? (
        <>
          <ul className="space-y-3 md:hidden" aria-label="Auctions">
            {bids.items.map((bid, index) => (
              <li key={`${bid.leadReference}-${index}`} className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm">
                <div className="flex items-start justify-between gap-3">
                  <p className="font-mono text-base font-bold text-brand-900">{bid.leadReference}</p>
                  <Result result={bid.result} />
                </div>
                <p className="text-slate-800">{bid.service} · {bid.state ?? '—'} · {formatDateTime(bid.at)}</p>
                <p className="font-semibold text-slate-900">{bidText(bid)}</p>
                {bid.reason ? <p className="text-slate-700">{bid.reason}</p> : null}
              </li>
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm md:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Auctions, newest first</caption>
              <thead className="bg-slate-50 text-xs text-slate-600">
                <tr>
                  {['Lead', 'Time', 'Service', 'State', 'Result', 'Your bid', 'Reason', 'Winning price'].map((header) => (
                    <th key={header} scope="col" className="px-3 py-2 font-semibold">{header}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {bids.items.map((bid, index) => (
                  <tr key={`${bid.leadReference}-${index}`} className="border-t border-slate-100 align-top">
                    <td className="px-3 py-2 font-mono font-semibold">{bid.leadReference}</td>
                    <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(bid.at)}</td>
                    <td className="px-3 py-2">{bid.service}</td>
                    <td className="px-3 py-2">{bid.state ?? '—'}</td>
                    <td className="px-3 py-2"><Result result={bid.result} /></td>
                    <td className="px-3 py-2 tabular-nums">{formatDollars(bid.bid)}</td>
                    <td className="px-3 py-2 text-slate-700">{bid.reason ?? '—'}</td>
                    <td className="px-3 py-2 tabular-nums">{formatDollars(bid.winningPrice)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {bids.loading ? <Loading label="Loading bids…" /> : null}
      {bids.nextCursor && !bids.loading ? (
        <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={bids.loadMore}>Load more</button>
      ) : null}
    </div>
  )
}
