import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { paths } from '../lib/paths'

/** Scroll to the top on every route change, except when a modal opens over the page or closes. */
export function ScrollToTop() {
  const { pathname } = useLocation()
  const previous = useRef(pathname)
  useEffect(() => {
    const involvesModal = pathname === paths.marketingPartners || previous.current === paths.marketingPartners
    previous.current = pathname
    if (!involvesModal) window.scrollTo(0, 0)
  }, [pathname])
  return null
}
