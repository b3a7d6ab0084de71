import { useEffect, useRef, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { paths } from '../lib/paths'
import type { CatalogData } from '../lib/types'
import { servicesOf } from './catalog-links'
import { keepFocusInside } from './focus-trap'

/** A menu button and a panel that slides in from the right on phones and tablets. */
export function MobileMenu({ catalog }: { catalog: CatalogData }) {
  // Remember where the menu was opened: following one of its links closes it.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const closeButton = useRef<HTMLButtonElement>(null)
  const openButton = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  const { pathname } = useLocation()
  const isOpen = openOn === pathname
  const setIsOpen = (open: boolean) => setOpenOn(open ? pathname : null)
  useEffect(() => {
    if (!isOpen) return
    const panelElement = panel.current
    const opener = openButton.current
    closeButton.current?.focus()
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setOpenOn(null)
      if (panelElement) keepFocusInside(panelElement, event)
    }
    document.addEventListener('keydown', onKeyDown)
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.body.style.overflow = ''
      // However the menu closed (Escape, Close, a link), focus goes back to the button that opened
      // it instead of being lost with the hidden panel.
      const active = document.activeElement
      if (!active || active === document.body || panelElement?.contains(active)) opener?.focus()
    }
  }, [isOpen])

  return (
    <div className="lg:hidden">
      <button
        ref={openButton}
        type="button"
        aria-expanded={isOpen}
        aria-controls="mobile-menu"
        onClick={() => setIsOpen(true)}
        className="rounded-md p-2 text-brand-900 hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-brand-600"
      >
        <span className="sr-only">Open menu</span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7">
          <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div
        aria-hidden="true"
        onClick={() => setIsOpen(false)}
        className={`fixed inset-0 z-40 bg-slate-900/50 transition-opacity ${isOpen ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
      />
      {/* The clip keeps the closed panel from widening the page sideways. */}
      <div className="pointer-events-none fixed inset-0 z-50 overflow-hidden">
        <div
          ref={panel}
          id="mobile-menu"
          role="dialog"
          aria-modal="true"
          aria-label="Menu"
          inert={!isOpen}
          className={`pointer-events-auto absolute inset-y-0 right-0 flex w-80 max-w-[85vw] flex-col bg-white shadow-2xl duration-300 ${isOpen ? 'visible translate-x-0 transition-transform' : 'invisible translate-x-full transition-[translate,visibility]'}`}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
            <span className="text-lg font-bold text-brand-900">Menu</span>
            <button
              ref={closeButton}
              type="button"
              onClick={() => setIsOpen(false)}
              className="rounded-md p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-brand-600"
            >
              <span className="sr-only">Close menu</span>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <nav
            aria-label="Mobile"
            className="flex-1 overflow-y-auto px-4 py-4"
            // A link to the page already shown does not change the path; close the menu anyway.
            onClick={(event) => (event.target as HTMLElement).closest('a') && setOpenOn(null)}
          >
            {catalog.categories.map((category) => (
              <div key={category.id} className="mb-5">
                <Link to={paths.category(category.id)} className="block py-1 font-bold text-brand-700">
                  {category.name}
                </Link>
                <ul className="mt-1 border-l-2 border-brand-100 pl-3">
                  {servicesOf(catalog, category).map(({ service, to }) => (
                    <li key={service.id}>
                      <Link to={to} className="block py-2 text-slate-700">
                        {service.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
      </div>
    </div>
  )
}
