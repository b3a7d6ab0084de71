import { useCallback, useEffect, useRef, useState } from 'react'

// Spec section 9: scroll to the field 50 px above it after 100 ms, flash it for 2 s.
const SCROLL_DELAY_MS = 100
const SCROLL_OFFSET_PX = 50
const FLASH_MS = 2000

export const fieldWrapperId = (fieldId: string) => `field-wrap-${fieldId}`

/** How much of the top of the window a sticky page header covers (0 on pages without one). */
function stickyHeaderHeight(): number {
  const header = document.querySelector('header')
  if (!header || !['sticky', 'fixed'].includes(getComputedStyle(header).position)) return 0
  return header.getBoundingClientRect().height
}

/** Scroll an element's top into view with some room above it, below a sticky header. */
export function scrollToElement(element: Element | null, offset = SCROLL_OFFSET_PX): void {
  if (!element) return
  const top = element.getBoundingClientRect().top + window.scrollY - offset - stickyHeaderHeight()
  window.scrollTo({ top: Math.max(top, 0), behavior: 'smooth' })
}

/** Brings a field to the visitor's attention; returns the id being flashed and the trigger. */
export function useFieldAttention() {
  const [flashing, setFlashing] = useState<string | null>(null)
  const timers = useRef<number[]>([])
  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), [])

  const attend = useCallback((fieldId: string) => {
    setFlashing(fieldId)
    timers.current.push(
      window.setTimeout(() => {
        const wrapper = document.getElementById(fieldWrapperId(fieldId))
        scrollToElement(wrapper)
        wrapper?.querySelector<HTMLElement>('input, select, textarea')?.focus({ preventScroll: true })
      }, SCROLL_DELAY_MS),
      window.setTimeout(() => setFlashing((current) => (current === fieldId ? null : current)), FLASH_MS),
    )
  }, [])

  return { flashing, attend }
}
