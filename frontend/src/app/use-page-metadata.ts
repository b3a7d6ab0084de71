import { useEffect } from 'react'
import { applyMetadata, fetchPageMetadata } from '../lib/metadata'

// The server wrote the head of the page the visit started on (the Vite dev server does not:
// no canonical link), so that first page needs no fetch; every later page does. Read on the
// first effect, not at import: the module is also loaded where there is no document (build-time rendering).
let serverWroteHeadOf: string | null | undefined

/** Keep <head> in step with the displayed path; the first page's head already came from the server. */
export function usePageMetadata(pathname: string): void {
  useEffect(() => {
    if (serverWroteHeadOf === undefined) {
      serverWroteHeadOf = document.querySelector('link[rel="canonical"]') ? window.location.pathname : null
    }
    const firstPage = pathname === serverWroteHeadOf
    serverWroteHeadOf = null
    if (firstPage) return
    let current = true
    fetchPageMetadata(pathname)
      .then((metadata) => current && applyMetadata(metadata))
      .catch((error: unknown) => console.warn(error))
    return () => {
      current = false
    }
  }, [pathname])
}
