// One account and its entries, newest first: the first page as any page reads (useApi), later
// pages appended by "load more".
import { useState } from 'react'
import { request, type ConsoleError } from '../api'
import { useApi } from '../use-api'
import type { Account, AccountEntries, Entry } from './types'

export interface LoadedAccount {
  account: Account | null
  entries: Entry[]
  nextCursor: string | null
  error: string | null
  loading: boolean
  loadMore: () => void
  // Read the account and its first page again (after an adjustment or a reversal).
  reload: () => void
}

interface LaterPages {
  id: string
  entries: Entry[]
  nextCursor: string | null
}

export function useAccount(id: string): LoadedAccount {
  const path = `/accounts/${encodeURIComponent(id)}`
  const first = useApi<AccountEntries>(path)
  // Pages after the first, of this account only.
  const [stored, setLater] = useState<LaterPages | null>(null)
  const later = stored?.id === id ? stored : null
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const nextCursor = later ? later.nextCursor : first.data?.nextCursor ?? null

  const loadMore = async () => {
    if (!nextCursor || busy) return
    setBusy(true)
    setError(null)
    try {
      const page = await request<AccountEntries>('GET', `${path}?cursor=${encodeURIComponent(nextCursor)}`)
      setLater({ id, entries: [...(later?.entries ?? []), ...page.entries], nextCursor: page.nextCursor })
    } catch (failure) {
      setError((failure as ConsoleError).message)
    } finally {
      setBusy(false)
    }
  }

  return {
    account: first.data?.account ?? null,
    entries: [...(first.data?.entries ?? []), ...(later?.entries ?? [])],
    nextCursor,
    error: first.error ?? error,
    loading: first.loading || busy,
    loadMore: () => void loadMore(),
    reload: () => {
      setLater(null)
      first.reload()
    },
  }
}
