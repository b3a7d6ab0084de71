// Address suggestions from one of two providers: Google Places when a maps key is configured,
// otherwise this project's own offline API (GET /api/address/suggest), so the site works
// without internet access.
import { loadScript } from '../../lib/third-party/load-script'
import type { StoredAddress } from '../../lib/storage-keys'

export interface AddressSuggestion {
  label: string
  // Which part the visitor typed (the street, looked up nowhere) and which part was found (the
  // place, from the ZIP data); Google's suggestions are found whole and leave both empty.
  typed?: string
  found?: string
  // Offline suggestions arrive complete; Google ones carry a place id resolved on pick.
  address?: StoredAddress
  placeId?: string
}

export interface AddressProvider {
  suggest(query: string, signal: AbortSignal): Promise<AddressSuggestion[]>
  resolve(suggestion: AddressSuggestion): Promise<StoredAddress>
}

export const offlineProvider: AddressProvider = {
  async suggest(query, signal) {
    const response = await fetch(`/api/address/suggest?q=${encodeURIComponent(query)}`, { signal })
    if (!response.ok) return []
    const body = (await response.json()) as { suggestions: (StoredAddress & { label: string; typed?: string; found?: string })[] }
    return body.suggestions.map(({ label, address1, city, state, zip, typed = '', found = '' }) => ({
      label,
      typed,
      found,
      address: { address1, city, state, zip },
    }))
  },
  async resolve(suggestion) {
    return suggestion.address ?? { address1: '', city: '', state: '', zip: '' }
  },
}

// The small part of the Maps JavaScript API used here (spec section 7: street_number, route,
// locality, administrative_area_level_1, postal_code).
interface AddressComponent {
  long_name: string
  short_name: string
  types: string[]
}
interface GoogleMaps {
  places: {
    AutocompleteService: new () => {
      getPlacePredictions(
        request: { input: string; componentRestrictions: { country: string }; types: string[] },
      ): Promise<{ predictions: { description: string; place_id: string }[] }>
    }
  }
  Geocoder: new () => {
    geocode(request: { placeId: string }): Promise<{ results: { address_components: AddressComponent[] }[] }>
  }
}

/** The parts of a geocoded address the lead form stores. */
export function parseAddressComponents(components: AddressComponent[]): StoredAddress {
  const part = (type: string, short = false) => {
    const found = components.find((c) => c.types.includes(type))
    return found ? (short ? found.short_name : found.long_name) : ''
  }
  return {
    address1: [part('street_number'), part('route')].filter(Boolean).join(' '),
    city: part('locality') || part('sublocality') || part('postal_town'),
    state: part('administrative_area_level_1', true),
    zip: part('postal_code'),
  }
}

export function googleProvider(apiKey: string): AddressProvider {
  const maps = async (): Promise<GoogleMaps> => {
    await loadScript(
      `https://maps.googleapis.com/maps/api/js?key=${encodeURIComponent(apiKey)}&libraries=places&loading=async&v=weekly`,
    )
    return (window as unknown as { google: { maps: GoogleMaps } }).google.maps
  }
  return {
    async suggest(query) {
      const api = await maps()
      const { predictions } = await new api.places.AutocompleteService().getPlacePredictions({
        input: query,
        componentRestrictions: { country: 'us' },
        types: ['address'],
      })
      return predictions.map((p) => ({ label: p.description, placeId: p.place_id }))
    },
    async resolve(suggestion) {
      const api = await maps()
      const { results } = await new api.Geocoder().geocode({ placeId: suggestion.placeId ?? '' })
      return parseAddressComponents(results[0]?.address_components ?? [])
    },
  }
}

/** A complete address typed without picking a suggestion (street, city, state and ZIP, or street
 * and ZIP), read by the offline API; null when it names no single street address. */
export async function resolveTypedAddress(text: string): Promise<StoredAddress | null> {
  const typed = text.trim()
  if (typed.length < 5) return null
  try {
    const [first] = await offlineProvider.suggest(typed, new AbortController().signal)
    const address = first?.address
    // The ZIP the visitor typed names one place; without it the street could be in several.
    if (!address?.address1 || !address.zip || !typed.includes(address.zip)) return null
    return address
  } catch (error) {
    console.warn('The typed address could not be read', error)
    return null
  }
}
