import { useEffect, useRef, type RefObject } from 'react'

/**
 * Keeps what a visitor typed or picked in a field of the page rendered at build time before
 * React took it over. React adopts that markup without reading the fields' values back, so an
 * address typed during the first second on a slow phone would sit in the input while the form's
 * state stayed empty (no suggestions, "please enter an address" on submit).
 */
export function useValueTypedBeforeHydration<T extends HTMLInputElement | HTMLSelectElement>(
  value: string,
  adopt: (typed: string) => void,
): RefObject<T | null> {
  const field = useRef<T | null>(null)
  // Only the first render's values matter: later changes go through onChange as usual.
  const first = useRef({ value, adopt })
  useEffect(() => {
    const typed = field.current?.value ?? ''
    if (typed !== '' && typed !== first.current.value) first.current.adopt(typed)
  }, [])
  return field
}

/** Marks the document once React has taken over the page, for monitoring and browser tests. */
export function useMarkInteractive() {
  useEffect(() => {
    document.documentElement.dataset.interactive = 'true'
  }, [])
}
