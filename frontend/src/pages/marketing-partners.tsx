import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { components } from '../lib/api-schema'
import { keepFocusInside } from '../components/focus-trap'
import { useCatalogState } from '../lib/catalog-context'

type PartnerList = components['schemas']['PartnerListAnswer']

const MARKETING_PARTNERS_PATH = '/api/marketing-partners'

/** The list published now: the catalogue's partners and every company that may receive the request. */
async function fetchCurrentList(signal: AbortSignal): Promise<PartnerList> {
  const response = await fetch(MARKETING_PARTNERS_PATH, { headers: { Accept: 'application/json' }, signal })
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  return (await response.json()) as PartnerList
}

/**
 * The partner list, as a modal over the page it was opened from; closing goes back one step.
 *
 * The companies that buy leads change between builds, so the list is read from the server each
 * time the modal opens (docs/partners.md). Until it arrives, the catalogue's own list (in the page
 * since the build) is shown under a "Loading the current list" status; if it cannot be read, that
 * status says so rather than passing the catalogue's list off as complete.
 */
export default function MarketingPartnersModal() {
  const navigate = useNavigate()
  const state = useCatalogState()
  const [current, setCurrent] = useState<PartnerList | null>(null)
  const [failed, setFailed] = useState(false)
  const dialog = useRef<HTMLDivElement>(null)
  const location = useLocation()
  // Opened directly (first page of the visit), there is no step to go back to: go home instead.
  const openedDirectly = location.key === 'default' && !location.state
  const close = () => (openedDirectly ? navigate('/', { replace: true }) : navigate(-1))

  const onEscape = useEffectEvent(close)

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    dialog.current?.focus()
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onEscape()
      if (dialog.current) keepFocusInside(dialog.current, event)
    }
    document.addEventListener('keydown', onKeyDown)
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.body.style.overflow = ''
      opener?.focus?.()
    }
  }, [])

  useEffect(() => {
    const abort = new AbortController()
    fetchCurrentList(abort.signal).then(setCurrent, () => {
      if (!abort.signal.aborted) setFailed(true)
    })
    return () => abort.abort()
  }, [])

  const partners = current ?? (state.status === 'ready' ? state.catalog.marketingPartners : null)
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-6">
      <div aria-hidden="true" className="absolute inset-0 bg-slate-900/60" onClick={close} />
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="marketing-partners-title"
        tabIndex={-1}
        className="relative flex max-h-[90vh] w-full max-w-2xl flex-col rounded-t-2xl bg-white shadow-2xl outline-none sm:rounded-2xl"
      >
        <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-4">
          <h2 id="marketing-partners-title" className="text-xl font-bold text-brand-900">
            Marketing Partners
          </h2>
          <button
            type="button"
            onClick={close}
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600"
          >
            <span className="sr-only">Close</span>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {/* Focusable, so keyboard users can scroll the long list. */}
        <div tabIndex={0} role="region" aria-label="Partner list" className="overflow-y-auto px-5 py-4 focus-visible:outline-3 focus-visible:outline-brand-600">
          {partners ? (
            <>
              {current ? null : (
                <p role="status" className="mb-3 text-sm text-slate-500">
                  {failed
                    ? 'The current list could not be loaded: companies added lately may be missing. Please try again.'
                    : 'Loading the current list…'}
                </p>
              )}
              <ul
                aria-label="Marketing partners"
                data-version={current?.version}
                className="grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-2"
              >
                {partners.partners.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
              <p className="mt-6 text-sm text-slate-600">{partners.note}</p>
            </>
          ) : (
            <p role="status" className="text-slate-500">
              {failed ? 'The list could not be loaded. Please try again in a moment.' : 'Loading…'}
            </p>
          )}
        </div>
        <div className="border-t border-slate-200 px-5 py-3 text-right">
          <button
            type="button"
            onClick={close}
            className="rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-900 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            Close
          </button>
        </div>
      </div>
    </div>
  )
}
