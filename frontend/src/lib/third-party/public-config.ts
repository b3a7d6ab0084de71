import { useCatalogState } from '../catalog-context'
import type { PublicConfig } from '../types'

/** The public third-party configuration from GET /api/catalog, or null until it has arrived. */
export function usePublicConfig(): PublicConfig | null {
  const state = useCatalogState()
  return state.status === 'ready' ? state.catalog.config : null
}
