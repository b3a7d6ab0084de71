import { useCallback, useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '../../components/button-classes'
import { PortalError, providerPath, request } from '../api'
import type { OfferChange, OfferList, OfferSummary } from '../paying-types'
import { PATHS } from '../paths'
import { useSignedIn } from '../session'
import { ErrorNotice, Loading } from '../ui'
import { useNow } from '../use-now'
import { TABS, tabFrom, type Tab } from './filters'
import { OfferCard } from './offer-card'
import { useOfferEvents } from './use-offer-events'

const PAGE_SIZE = 25

const listPath = (providerId: string, tab: Tab, before?: string) => {
  const query = new URLSearchParams({ status: tab, limit: String(PAGE_SIZE) })
  if (before) query.set('before', before)
  return providerPath(providerId, `/offers?${query}`)
}

/** The provider's offers by tab (Open, Accepted, Closed), kept up to date while the page is open. */
export default function OffersPage() {
  const { provider } = useSignedIn()
  const [params] = useSearchParams()
  const tab = tabFrom(params.get('tab'))
  const now = useNow()
  // The list as last read, with the tab it belongs to: another tab's list is never shown as this one's.
  const [read, setRead] = useState<{ tab: Tab; list: OfferList } | null>(null)
  const list = read?.tab === tab ? read.list : null
  const [error, setError] = useState<string | null>(null)
  const [moreBusy, setMoreBusy] = useState(false)
  const [notice, setNotice] = useState('')
  // Answers to an older reload (or another tab's) never overwrite a newer one.
  const generation = useRef(0)

  const reload = useCallback(() => {
    const mine = ++generation.current
    return request<OfferList>('GET', listPath(provider.id, tab)).then((answer) => {
      if (mine !== generation.current) return
      setRead({ tab, list: answer })
      setError(null)
    }, (failure: PortalError) => {
      if (mine === generation.current) setError(failure.message)
    })
  }, [provider.id, tab])

  useEffect(() => void reload(), [reload])

  const seen = useRef(new Set<string>())
  useEffect(() => {
    for (const offer of list?.items ?? []) seen.current.add(offer.id)
  }, [list])

  useOfferEvents(provider.id, {
    onChange: (change: OfferChange) => {
      if (change.status === 'open' && !seen.current.has(change.id)) setNotice('New offer')
      void reload()
    },
    onConnect: () => void reload(),
  })

  const loadMore = async () => {
    if (!list?.nextCursor) return
    setMoreBusy(true)
    try {
      const answer = await request<OfferList>('GET', listPath(provider.id, tab, list.nextCursor))
      setRead({ tab, list: { ...answer, items: [...list.items, ...answer.items] } })
    } catch (failure) {
      setError((failure as PortalError).message)
    } finally {
      setMoreBusy(false)
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-bold text-slate-900">Offers</h1>
        {/* Announced politely when a new offer arrives while the page is open. */}
        <p aria-live="polite" className="text-sm font-semibold text-green-800">
          {notice ? <span className="rounded-full bg-green-100 px-3 py-1">{notice}</span> : null}
        </p>
      </div>
      <TabBar current={tab} openCount={list?.openCount} />
      <ErrorNotice message={error} />
      {list ? <OfferItems items={list.items} tab={tab} now={now} /> : error ? null : <Loading label="Loading offers…" />}
      {list?.nextCursor ? (
        <button type="button" className={buttonClasses('secondary', 'w-full')} disabled={moreBusy} onClick={() => void loadMore()}>
          Show older offers
        </button>
      ) : null}
    </div>
  )
}

function TabBar({ current, openCount }: { current: Tab; openCount: number | undefined }) {
  return (
    <nav aria-label="Offers by status" className="grid grid-cols-3 gap-1 rounded-xl bg-slate-200 p-1">
      {TABS.map(({ key, label }) => {
        const active = key === current
        return (
          <Link key={key} to={key === 'open' ? PATHS.offers : `${PATHS.offers}?tab=${key}`} aria-current={active ? 'page' : undefined}
            className={'flex min-h-11 items-center justify-center gap-1.5 rounded-lg text-sm font-semibold focus-visible:outline-2 ' +
              'focus-visible:outline-brand-600 ' + (active ? 'bg-white text-brand-900 shadow-sm' : 'text-slate-700 hover:bg-white/60')}>
            {label}
            {key === 'open' && openCount ? (
              <span className="rounded-full bg-accent-500 px-2 text-xs font-bold text-white">
                {openCount}<span className="sr-only"> open</span>
              </span>
            ) : null}
          </Link>
        )
      })}
    </nav>
  )
}

function OfferItems({ items, tab, now }: { items: OfferSummary[]; tab: Tab; now: number }) {
  if (items.length === 0) {
    return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">{TABS.find((t) => t.key === tab)?.empty}</p>
  }
  return (
    <ul className="space-y-3" aria-label={`${TABS.find((t) => t.key === tab)?.label} offers`}>
      {items.map((offer) => <OfferCard key={offer.id} offer={offer} now={now} />)}
    </ul>
  )
}
