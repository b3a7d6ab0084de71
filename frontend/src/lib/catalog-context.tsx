import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { fetchCatalog } from './api'
import type { CatalogData } from './types'

type CatalogState =
  | { status: 'loading' }
  | { status: 'ready'; catalog: CatalogData }
  | { status: 'error'; message: string }

const CatalogContext = createContext<CatalogState>({ status: 'loading' })

export function CatalogProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CatalogState>({ status: 'loading' })
  useEffect(() => {
    let cancelled = false
    fetchCatalog()
      .then((catalog) => !cancelled && setState({ status: 'ready', catalog }))
      .catch((error: Error) => !cancelled && setState({ status: 'error', message: error.message }))
    return () => {
      cancelled = true
    }
  }, [])
  return <CatalogContext.Provider value={state}>{children}</CatalogContext.Provider>
}

export const useCatalogState = () => useContext(CatalogContext)
