// What a provider may offer, from GET /api/partner/services (backend/servicematch/portal/router_join.py):
// every service with the licence it needs, and the states. Shared by the application form at
// /partner-with-us and the provider portal's profile.
import type { components } from './api-schema'

type Schemas = components['schemas']

export type PartnerService = Schemas['PartnerService']
export type PartnerState = Schemas['PartnerState']
export type PartnerOptions = Schemas['PartnerOptions']

export async function fetchPartnerOptions(): Promise<PartnerOptions> {
  const response = await fetch('/api/partner/services', { headers: { Accept: 'application/json' } })
  if (!response.ok) throw new Error('The list of services could not be loaded. Reload the page to try again.')
  return (await response.json()) as PartnerOptions
}

/** The licences the chosen services need, each once. */
export function licencesNeeded(services: PartnerService[], chosen: string[]): string[] {
  const needed = services.filter((s) => chosen.includes(s.id) && s.licence).map((s) => s.licence as string)
  return [...new Set(needed)]
}

/** The services grouped by vertical, in catalogue order. */
export function byVertical(services: PartnerService[]): { name: string; services: PartnerService[] }[] {
  const groups = new Map<string, PartnerService[]>()
  for (const service of services) groups.set(service.verticalName, [...(groups.get(service.verticalName) ?? []), service])
  return [...groups].map(([name, list]) => ({ name, services: list }))
}

/** A service area as the forms edit it: ZIP codes (and a radius) or whole states. */
export interface AreaDraft {
  kind: 'zips' | 'states'
  zips: string
  radius: string
  states: string[]
}

export function areaDraft(zips: string[], radius: number | null, states: string[]): AreaDraft {
  return { kind: states.length ? 'states' : 'zips', zips: zips.join(', '), radius: radius?.toString() ?? '', states }
}

/** The area as the API takes it: the form chosen, the other left empty. */
export function areaBody(area: AreaDraft): { zips: string[]; radiusMiles: number | null; states: string[] } {
  if (area.kind === 'states') return { zips: [], radiusMiles: null, states: area.states }
  const zips = area.zips.split(/[\s,]+/).map((z) => z.trim()).filter(Boolean)
  return { zips, radiusMiles: area.radius.trim() === '' ? null : Number(area.radius), states: [] }
}
