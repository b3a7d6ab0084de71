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

const ZIP_PATTERN = /^\d{5}$/
// A failed ZIP look-up accepts the ZIP typed; the server checks it again.
const ZIP_LOOKUP_TIMEOUT_MS = 5000

/** What the ZIP data says of a ZIP typed for a picked place: null when it fits, else what is wrong. */
async function zipProblem(zip: string, place: StoredAddress): Promise<string | null> {
  const controller = new AbortController()
  const timer = window.setTimeout(() => controller.abort(), ZIP_LOOKUP_TIMEOUT_MS)
  try {
    const response = await fetch(`/api/address/zip/${zip}`, { signal: controller.signal })
    if (response.status === 404) return `No US ZIP code ${zip} is known. Please check it.`
    if (!response.ok) return null
    const found = (await response.json()) as { city: string; state: string }
    if (found.state === place.state) return null
    return `${zip} is in ${found.city}, ${found.state}, not ${place.city}, ${place.state}. Please check it.`
  } catch {
    return null
  } finally {
    window.clearTimeout(timer)
  }
}

/** The place of a pick that came without its ZIP, in words for the prompt. */
const placeName = (address: StoredAddress) => [address.city, address.state].filter(Boolean).join(', ')

/** A combobox that completes a US address as the visitor types (WAI-ARIA combobox pattern).
 * A pick without a ZIP (the data knows the city, not which of its ZIP codes the street is in)
 * asks for the ZIP before it counts as chosen. */
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
  // A pick still missing its ZIP, the ZIP being typed, and what is wrong with it.
  const [needsZip, setNeedsZip] = useState<{ address: StoredAddress; label: string } | null>(null)
  const [zip, setZip] = useState('')
  const [zipMessage, setZipMessage] = useState('')
  const zipInput = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (needsZip) zipInput.current?.focus()
  }, [needsZip])
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
    setNeedsZip(null)
    try {
      const address = await provider.resolve(suggestion)
      if (address.zip) return onSelect(address)
      setZip('')
      setZipMessage(`Enter the ZIP code of this address: ${placeName(address) || 'this place'} has more than one.`)
      setNeedsZip({ address, label: suggestion.label })
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

  const completeZip = async (typed: string) => {
    setZip(typed)
    if (!needsZip) return
    if (!ZIP_PATTERN.test(typed)) {
      setZipMessage(typed.length >= 5 ? 'ZIP code must be exactly 5 digits' : zipMessage)
      return
    }
    const problem = await zipProblem(typed, needsZip.address)
    if (problem) return setZipMessage(problem)
    const withZip = `${needsZip.label} ${typed}`
    picked.current = withZip
    setNeedsZip(null)
    setZipMessage('')
    onChange(withZip)
    onSelect({ ...needsZip.address, zip: typed })
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
          setNeedsZip(null)
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
        className={`block min-h-12 w-full rounded-lg border bg-white px-4 py-3 text-base text-slate-900 placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-3 focus:ring-brand-100 ${error ? 'border-red-500 ring-2 ring-red-500' : 'border-slate-300'}`}
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
            // One sentence for screen readers: the place found, then the street as typed.
            aria-label={suggestion.found && suggestion.typed ? `${suggestion.found}, ${suggestion.typed} — as typed` : undefined}
            // Pick on pointer down, before the input's blur closes the list.
            onPointerDown={(event) => {
              event.preventDefault()
              void pick(suggestion)
            }}
            className={`cursor-pointer px-4 py-3 text-sm text-slate-800 ${index === active ? 'bg-brand-50 text-brand-900' : 'hover:bg-slate-50'}`}
          >
            {suggestion.found ? (
              <>
                {/* The place was found in the ZIP data; the street is only what was typed. */}
                <span className="block font-semibold">
                  {suggestion.found}
                  {suggestion.typed ? <span className="sr-only">, </span> : null}
                </span>
                {suggestion.typed ? (
                  <span className="block text-slate-600">
                    {suggestion.typed} <span className="italic">— as typed</span>
                  </span>
                ) : null}
              </>
            ) : (
              suggestion.label
            )}
          </li>
        ))}
      </ul>
      </div>
      {error !== undefined ? (
        <p id={`${id}-error`} aria-live="polite" className="mt-1 min-h-5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {needsZip ? (
        <div className="mt-3">
          <label htmlFor={`${id}-zip`} className="mb-1 block text-sm font-semibold text-slate-800">
            ZIP code
          </label>
          <input
            ref={zipInput}
            id={`${id}-zip`}
            type="text"
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={5}
            value={zip}
            onChange={(event) => void completeZip(event.target.value.replace(/\D/g, ''))}
            aria-invalid="true"
            aria-describedby={`${id}-zip-message`}
            className="block min-h-12 w-36 rounded-lg border border-red-500 bg-white px-4 py-3 text-base text-slate-900 ring-2 ring-red-500 focus:outline-none focus:ring-brand-600"
          />
        </div>
      ) : null}
      {/* Kept in the page, so the prompt is read out as it appears. */}
      <p id={`${id}-zip-message`} aria-live="polite" className={needsZip ? 'mt-1 text-sm font-medium text-red-700' : 'sr-only'}>
        {needsZip ? zipMessage : ''}
      </p>
      <p className="sr-only" aria-live="polite">
        {showList ? `${suggestions.length} suggestions available` : ''}
      </p>
    </div>
  )
}
