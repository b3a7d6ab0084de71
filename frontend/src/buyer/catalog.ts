// The services and states the filters and settings offer, from the public catalogue the site reads.
import { useEffect, useState } from 'react'
import { fetchCatalog } from '../lib/api'

export interface CatalogChoices {
  services: { value: string; label: string; vertical: string }[]
  states: { value: string; label: string }[]
}

const NONE: CatalogChoices = { services: [], states: [] }
let loaded: Promise<CatalogChoices> | null = null

/** A service as buyers' settings name it: its slug, or vertical/slug where two verticals share the slug. */
export function serviceChoices(services: { id: string; vertical: string; name: string }[]): CatalogChoices['services'] {
  const count = new Map<string, number>()
  for (const service of services) count.set(service.id, (count.get(service.id) ?? 0) + 1)
  return services
    .map((service) => ({
      value: (count.get(service.id) ?? 0) > 1 ? `${service.vertical}/${service.id}` : service.id,
      label: service.name,
      vertical: service.vertical,
    }))
    .sort((a, b) => a.label.localeCompare(b.label))
}

function load(): Promise<CatalogChoices> {
  loaded ??= fetchCatalog()
    .then((catalog) => ({ services: serviceChoices(catalog.services), states: catalog.site.states }))
    .catch(() => {
      // The filters and settings still work as typed text; the next page tries again.
      loaded = null
      return NONE
    })
  return loaded
}

export function useCatalogChoices(): CatalogChoices {
  const [choices, setChoices] = useState(NONE)
  useEffect(() => {
    let current = true
    void load().then((answer) => current && setChoices(answer))
    return () => void (current = false)
  }, [])
  return choices
}
