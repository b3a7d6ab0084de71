import { useCallback, useEffect, useState } from 'react'
import { type BuyerError, type Page, request } from '../api'
import type { BuyerLeadRow } from '../types'

/** New rows first, then the rows already shown; a row already there is not shown twice. */
export function mergeNewest(shown: BuyerLeadRow[], newest: BuyerLeadRow[]): { items: BuyerLeadRow[]; added: string[] } {
  const known = new Set(shown.map((row) => row.id))
  const added = newest.filter((row) => !known.has(row.id))
  return { items: [...added, ...shown], added: added.map((row) => row.id) }
}

// The list as last read, with the path it answers: another view's rows are never shown as this one's.
interface Read {
  path: string
  items: BuyerLeadRow[]
  nextCursor: string | null
  // The rows that arrived while the page was open.
  fresh: Set<string>
}

const NONE = new Set<string>()

/**
 * The leads of one filtered view, newest first: "load more" appends older ones; `refreshNewest`
 * reads the first page again and puts the leads bought since on top (marked new), keeping the
 * older pages already loaded.
 */
export function useLeads(path: string) {
  const [read, setRead] = useState<Read | null>(null)
  const [failed, setFailed] = useState<{ path: string; message: string } | null>(null)
  const [moreBusy, setMoreBusy] = useState(false)
  const shown = read?.path === path ? read : null
  const error = failed?.path === path ? failed.message : null

  useEffect(() => {
    let current = true
    request<Page<BuyerLeadRow>>('GET', path).then(
      (page) => current && setRead({ path, items: page.items, nextCursor: page.nextCursor, fresh: NONE }),
      (failure: BuyerError) => current && setFailed({ path, message: failure.message }),
    )
    return () => void (current = false)
  }, [path])

  const loadMore = async () => {
    if (!shown?.nextCursor) return
    setMoreBusy(true)
    try {
      const page = await request<Page<BuyerLeadRow>>('GET', `${path}&cursor=${encodeURIComponent(shown.nextCursor)}`)
      setRead((last) => (last?.path === path ? { ...last, items: [...last.items, ...page.items], nextCursor: page.nextCursor } : last))
    } catch (failure) {
      setFailed({ path, message: (failure as BuyerError).message })
    } finally {
      setMoreBusy(false)
    }
  }

  const refreshNewest = useCallback(async () => {
    try {
      const page = await request<Page<BuyerLeadRow>>('GET', path)
      setRead((last) => {
        if (last?.path !== path) return last
        const merged = mergeNewest(last.items, page.items)
        return merged.added.length ? { ...last, items: merged.items, fresh: new Set([...last.fresh, ...merged.added]) } : last
      })
    } catch {
      // The list stays as it is; the next purchase or a reload tries again.
    }
  }, [path])

  return {
    items: shown?.items ?? [],
    nextCursor: shown?.nextCursor ?? null,
    fresh: shown?.fresh ?? NONE,
    error,
    loading: (!shown && !error) || moreBusy,
    loadMore: () => void loadMore(),
    refreshNewest,
  }
}
