import { useCallback, useEffect, useRef, useState } from 'react'
import { ConsoleError, request } from './api'
import type { Page } from './types'

export interface Loaded<T> {
  data: T | null
  error: string | null
  loading: boolean
  reload: () => void
}

/** GET a console path whenever it changes; null waits. */
export function useApi<T>(path: string | null): Loaded<T> {
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
      .catch((failure: ConsoleError) => current && setError(failure.message))
      .finally(() => current && setLoading(false))
    return () => {
      current = false
    }
  }, [path, version])

  const reload = useCallback(() => setVersion((v) => v + 1), [])
  return { data, error, loading, reload }
}

export interface PagedList<T> {
  items: T[]
  nextCursor: string | null
  error: string | null
  loading: boolean
  loadMore: () => void
  reload: () => void
}

/** A cursor-paged list: a new path starts again at the first page, "load more" appends; null waits. */
export function usePagedList<T>(path: string | null): PagedList<T> {
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
      if (ticket === latest.current) setError((failure as ConsoleError).message)
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
