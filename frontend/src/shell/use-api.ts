// Reading an app's API from its pages: one GET per path, or a cursor-paged list.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { SessionApiError, SessionClient } from './session-client'

/** One page of a cursor-paged list, as the server answers it. */
export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

export interface Loaded<T> {
  data: T | null
  error: string | null
  loading: boolean
  reload: () => void
}

export interface PagedList<T> {
  items: T[]
  nextCursor: string | null
  error: string | null
  loading: boolean
  loadMore: () => void
  reload: () => void
}

/** The reading hooks of one app, over its client's request. */
export function createApiHooks(request: SessionClient['request']) {
  /** GET a path whenever it changes; null waits. */
  function useApi<T>(path: string | null): Loaded<T> {
    const [data, setData] = useState<T | null>(null)
    const [error, setError] = useState<string | null>(null)
    const [loading, setLoading] = useState(path !== null)
    const [version, setVersion] = useState(0)

    useEffect(() => {
      if (path === null) return
      let current = true
      setLoading(true)
      setError(null)
      request<T>('GET', path)
        .then((answer) => current && setData(answer))
        .catch((failure: SessionApiError) => current && setError(failure.message))
        .finally(() => current && setLoading(false))
      return () => {
        current = false
      }
    }, [path, version])

    const reload = useCallback(() => setVersion((v) => v + 1), [])
    return { data, error, loading, reload }
  }

  /** A cursor-paged list: a new path starts again at the first page, "load more" appends; null waits. */
  function usePagedList<T>(path: string | null): PagedList<T> {
    const [items, setItems] = useState<T[]>([])
    const [nextCursor, setNextCursor] = useState<string | null>(null)
    const [error, setError] = useState<string | null>(null)
    const [loading, setLoading] = useState(true)
    const [version, setVersion] = useState(0)
    // Only the newest request may write its answer; an older one finishing late is dropped.
    const latest = useRef(0)

    const load = useCallback(async (cursor: string | null) => {
      if (path === null) return
      const ticket = ++latest.current
      setLoading(true)
      setError(null)
      try {
        const separator = path.includes('?') ? '&' : '?'
        const page = await request<Page<T>>('GET', cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path)
        if (ticket !== latest.current) return
        setItems((previous) => (cursor ? [...previous, ...page.items] : page.items))
        setNextCursor(page.nextCursor)
      } catch (failure) {
        if (ticket === latest.current) setError((failure as SessionApiError).message)
      } finally {
        if (ticket === latest.current) setLoading(false)
      }
    }, [path])

    useEffect(() => {
      void load(null)
    }, [load, version])

    return {
      items,
      nextCursor,
      error,
      loading,
      loadMore: () => nextCursor && void load(nextCursor),
      reload: () => setVersion((v) => v + 1),
    }
  }

  return { useApi, usePagedList }
}

/** A query string from filters, leaving out empty values. */
export function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value)
  const text = search.toString()
  return text ? `?${text}` : ''
}
