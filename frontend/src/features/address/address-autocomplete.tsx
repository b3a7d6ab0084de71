import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useCatalogState } from '../../lib/catalog-context'
import type { StoredAddress } from '../../lib/storage-keys'
import { useValueTypedBeforeHydration } from '../../lib/typed-before-hydration'
import { googleProvider, offlineProvider, type AddressSuggestion } from './address-client'

// Spec section 9: suggestions are requested 200 ms after the visitor stops typing.
export const SUGGEST_DEBOUNCE_MS = 200
const MIN_QUERY_LENGTH = 2

interface Props {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  onSelect: (address: StoredAddress) => void
  placeholder?: string
  // A problem with what was typed, shown under the field and tied to it.
  error?: string
}

/** A combobox that completes a US address as the visitor types (WAI-ARIA combobox pattern). */
export function AddressAutocomplete({ id, label, value, onChange, onSelect, placeholder, error }: Props) {
  const catalogState = useCatalogState()
  const mapsKey = catalogState.status === 'ready' ? catalogState.catalog.config.googleMapsApiKey : ''
  const provider = useMemo(() => (mapsKey ? googleProvider(mapsKey) : offlineProvider), [mapsKey])
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([])
  const [isOpen, setIsOpen] = useState(false)
  const [active, setActive] = useState(-1)
  // A pick writes its label into the input; that change must not ask for suggestions again.
  const picked = useRef<string | null>(null)
  // Escape or leaving the field closes the list until the visitor types again: suggestions that
  // arrive after that (the 200 ms wait, a slow answer) must not reopen it over the buttons below.
  const dismissed = useRef(false)
  const listId = `${id}-listbox`
  const input = useValueTypedBeforeHydration<HTMLInputElement>(value, onChange)

  useEffect(() => {
    const query = value.trim()
    if (query.length < MIN_QUERY_LENGTH || picked.current === value) {
      setSuggestions([])
      return
    }
    const controller = new AbortController()
    const timer = window.setTimeout(() => {
      provider
        .suggest(query, controller.signal)
        .then((found) => {
          setSuggestions(found)
          setActive(-1)
          setIsOpen(!dismissed.current && document.activeElement === input.current)
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.warn('Address suggestions failed', error)
        })
    }, SUGGEST_DEBOUNCE_MS)
    return () => {
      window.clearTimeout(timer)
      controller.abort()
    }
  }, [value, provider])

  const pick = async (suggestion: AddressSuggestion) => {
    picked.current = suggestion.label
    onChange(suggestion.label)
    setIsOpen(false)
    setSuggestions([])
    try {
      onSelect(await provider.resolve(suggestion))
    } catch (error) {
      // Spec section 7: a failed parse is only logged; the visitor can type the address later.
      console.warn('Address could not be resolved', error)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault()
      setIsOpen(true)
      setActive((index) => (index + 1) % suggestions.length)
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault()
      setActive((index) => (index <= 0 ? suggestions.length - 1 : index - 1))
    } else if (event.key === 'Enter' && isOpen && active >= 0) {
      event.preventDefault()
      void pick(suggestions[active])
    } else if (event.key === 'Escape') {
      dismissed.current = true
      setIsOpen(false)
    }
  }

  const showList = isOpen && suggestions.length > 0
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div className="relative">
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${id}-option-${active}` : undefined}
        value={value}
        placeholder={placeholder}
        onChange={(event) => {
          picked.current = null
          dismissed.current = false
          onChange(event.target.value)
        }}
        onKeyDown={onKeyDown}
        onFocus={() => suggestions.length && setIsOpen(true)}
        onBlur={() => {
          dismissed.current = true
          setIsOpen(false)
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error !== undefined ? `${id}-error` : undefined}
        className="block min-h-12 w-full rounded-lg border border-slate-300 bg-white px-4 py-3 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-3 focus:ring-brand-100"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label} suggestions`}
        hidden={!showList}
        className="absolute left-0 right-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-left shadow-xl"
      >
        {suggestions.map((suggestion, index) => (
          <li
            key={`${suggestion.label}-${index}`}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            // Pick on pointer down, before the input's blur closes the list.
            onPointerDown={(event) => {
              event.preventDefault()
              void pick(suggestion)
            }}
            className={`cursor-pointer px-4 py-3 text-sm text-slate-800 ${index === active ? 'bg-brand-50 text-brand-900' : 'hover:bg-slate-50'}`}
          >
            {suggestion.label}
          </li>
        ))}
      </ul>
      </div>
      {error !== undefined ? (
        <p id={`${id}-error`} aria-live="polite" className="mt-1 min-h-5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <p className="sr-only" aria-live="polite">
        {showList ? `${suggestions.length} suggestions available` : ''}
      </p>
    </div>
  )
}
