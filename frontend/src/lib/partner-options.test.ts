import { describe, expect, it } from 'vitest'
import { areaBody, areaDraft, byVertical, licencesNeeded, type PartnerService } from './partner-options'

const service = (id: string, verticalName: string, licence: string | null = null): PartnerService =>
  ({ id, name: id, vertical: id.split('/')[0], verticalName, licence })

describe('partner options', () => {
  const services = [service('services/hvac', 'Home Services', 'HVAC contractor licence'),
    service('services/roofing', 'Home Services'), service('legal/bankruptcy', 'Legal', 'State bar licence'),
    service('legal/auto-accident', 'Legal', 'State bar licence')]

  it('names each licence the chosen services need once', () => {
    expect(licencesNeeded(services, ['services/roofing'])).toEqual([])
    expect(licencesNeeded(services, ['legal/bankruptcy', 'legal/auto-accident', 'services/hvac']))
      .toEqual(['HVAC contractor licence', 'State bar licence'])
  })

  it('groups services by vertical in their order', () => {
    expect(byVertical(services).map((g) => [g.name, g.services.length])).toEqual([['Home Services', 2], ['Legal', 2]])
  })

  it('sends the area form chosen and empties the other', () => {
    expect(areaBody({ kind: 'zips', zips: '78701, 78702 78703', radius: '25', states: ['TX'] }))
      .toEqual({ zips: ['78701', '78702', '78703'], radiusMiles: 25, states: [] })
    expect(areaBody({ kind: 'zips', zips: '78701', radius: ' ', states: [] })).toEqual({ zips: ['78701'], radiusMiles: null, states: [] })
    expect(areaBody({ kind: 'states', zips: '78701', radius: '25', states: ['TX', 'DC'] }))
      .toEqual({ zips: [], radiusMiles: null, states: ['TX', 'DC'] })
    expect(areaDraft([], null, ['TX'])).toEqual({ kind: 'states', zips: '', radius: '', states: ['TX'] })
  })
})
