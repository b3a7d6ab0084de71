import { useEffect, useState } from 'react'
import { ApiError, fetchService, knownService } from './api'
import type { ServiceConfig } from './types'

export type ServiceState =
  | { status: 'loading' }
  | { status: 'ready'; service: ServiceConfig }
  | { status: 'not-found' }
  | { status: 'error'; message: string }

/** The configuration key is the last segment of the service parameter (spec section 2). */
export const serviceKey = (param: string | undefined) => (param ?? '').split('/').filter(Boolean).pop() ?? ''

/** One service's configuration from the API, tracking loading, not-found and failure. */
export function useService(slug: string, vertical?: string): ServiceState {
  const [state, setState] = useState<ServiceState>(() => {
    const service = knownService(slug, vertical)
    return service ? { status: 'ready', service } : { status: 'loading' }
  })
  useEffect(() => {
    let cancelled = false
    const service = knownService(slug, vertical)
    if (service) {
      setState({ status: 'ready', service })
      return
    }
    setState({ status: 'loading' })
    if (!slug) {
      setState({ status: 'not-found' })
      return
    }
    fetchService(slug, vertical)
      .then((service) => !cancelled && setState({ status: 'ready', service }))
      .catch((error: Error) => {
        if (cancelled) return
        setState(error instanceof ApiError && error.status === 404 ? { status: 'not-found' } : { status: 'error', message: error.message })
      })
    return () => {
      cancelled = true
    }
  }, [slug, vertical])
  return state
}
