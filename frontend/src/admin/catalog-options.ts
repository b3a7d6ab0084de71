import { useEffect, useState } from 'react'

// What the filters offer, read from the public catalogue the site itself uses.
export interface CatalogOptions {
  verticals: string[]
  services: { id: string; vertical: string; name: string }[]
  states: { value: string; label: string }[]
}

const EMPTY: CatalogOptions = { verticals: [], services: [], states: [] }
let cached: Promise<CatalogOptions> | null = null

function load(): Promise<CatalogOptions> {
  cached ??= fetch('/api/catalog', { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then((catalog) => {
      const services = (catalog.services ?? []) as CatalogOptions['services']
      return {
        services: [...services].sort((a, b) => a.name.localeCompare(b.name)),
        verticals: [...new Set(services.map((s) => s.vertical))].sort(),
        states: catalog.site?.states ?? [],
      }
    })
    .catch(() => {
      // Filters still work as free text when the catalogue cannot be read; try again next time.
      cached = null
      return EMPTY
    })
  return cached
}

export function useCatalogOptions(): CatalogOptions {
  const [options, setOptions] = useState(EMPTY)
  useEffect(() => {
    let current = true
    void load().then((loaded) => current && setOptions(loaded))
    return () => {
      current = false
    }
  }, [])
  return options
}
