import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { fetchCatalog, knownCatalog } from './api'
import type { CatalogData } from './types'

type CatalogState =
  | { status: 'loading' }
  | { status: 'ready'; catalog: CatalogData }
  | { status: 'error'; message: string }

const CatalogContext = createContext<CatalogState>({ status: 'loading' })

export function CatalogProvider({ children }: { children: ReactNode }) {
  // Ready at once when the page carried the catalogue (and always while rendering at build time).
  const [state, setState] = useState<CatalogState>(() => {
    const catalog = knownCatalog()
    return catalog ? { status: 'ready', catalog } : { status: 'loading' }
  })
  useEffect(() => {
    if (state.status === 'ready') return
    let cancelled = false
    fetchCatalog()
      .then((catalog) => !cancelled && setState({ status: 'ready', catalog }))
      .catch((error: Error) => !cancelled && setState({ status: 'error', message: error.message }))
    return () => {
      cancelled = true
    }
    // Only the first state decides whether to fetch.
  }, [])
  return <CatalogContext.Provider value={state}>{children}</CatalogContext.Provider>
}

export const useCatalogState = () => useContext(CatalogContext)
