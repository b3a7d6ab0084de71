import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Link, useLocation } from 'react-router'
import { paths } from '../lib/paths'
import type { CatalogData } from '../lib/types'
import { servicesOf } from './catalog-links'

// The dropdown stays open briefly after the pointer leaves, so crossing a gap does not close it.
export const MENU_CLOSE_DELAY_MS = 300

export function DesktopMenu({ catalog }: { catalog: CatalogData }) {
  // The open dropdown and the page it was opened on: following one of its links closes it.
  const [opened, setOpened] = useState<{ id: string; on: string } | null>(null)
  const closeTimer = useRef<number | undefined>(undefined)
  const { pathname } = useLocation()
  const openId = opened?.on === pathname ? opened.id : null
  const setOpenId = (id: string | null) => setOpened(id ? { id, on: pathname } : null)

  const cancelClose = () => window.clearTimeout(closeTimer.current)
  const open = (id: string) => {
    cancelClose()
    setOpenId(id)
  }
  const closeLater = () => {
    cancelClose()
    closeTimer.current = window.setTimeout(() => setOpenId(null), MENU_CLOSE_DELAY_MS)
  }
  useEffect(() => () => cancelClose(), [])

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, id: string) => {
    if (event.key === 'Escape' && openId) {
      setOpenId(null)
      event.currentTarget.querySelector<HTMLButtonElement>('button')?.focus()
    } else if (event.key === 'ArrowDown' && event.target instanceof HTMLButtonElement) {
      event.preventDefault()
      open(id)
      const item = event.currentTarget
      // Wait for the panel to render before moving focus into it.
      window.requestAnimationFrame(() => item.querySelector<HTMLAnchorElement>('a')?.focus())
    }
  }

  return (
    <nav aria-label="Main" className="hidden lg:block">
      <ul className="flex items-center gap-1">
        {catalog.categories.map((category) => {
          const isOpen = openId === category.id
          const panelId = `menu-${category.id}`
          return (
            <li
              key={category.id}
              className="relative"
              onPointerEnter={() => open(category.id)}
              onPointerLeave={closeLater}
              onKeyDown={(event) => onKeyDown(event, category.id)}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) closeLater()
              }}
            >
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => (isOpen ? setOpenId(null) : open(category.id))}
                className="flex items-center gap-1 rounded-md px-3 py-2 font-semibold text-slate-700 hover:bg-brand-50 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-brand-600"
              >
                {category.name}
                <svg aria-hidden="true" viewBox="0 0 20 20" className={`h-4 w-4 transition-transform ${isOpen ? 'rotate-180' : ''}`}>
                  <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
                </svg>
              </button>
              <div
                id={panelId}
                hidden={!isOpen}
                className="absolute left-0 top-full z-30 w-64 pt-2"
              >
                <ul
                  className="rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
                  onClick={(event) => (event.target as HTMLElement).closest('a') && setOpenId(null)}
                >
                  <li>
                    <Link
                      to={paths.category(category.id)}
                      className="block rounded-md px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-brand-600"
                    >
                      All {category.name}
                    </Link>
                  </li>
                  {servicesOf(catalog, category).map(({ service, to }) => (
                    <li key={service.id}>
                      <Link
                        to={to}
                        className="block rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-700 focus-visible:outline-3 focus-visible:outline-brand-600"
                      >
                        {service.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
