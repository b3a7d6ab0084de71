import { describe, expect, it } from 'vitest'
import { findService, matchServicePath, stateName } from './service-lookup'
import type { CatalogData, ServiceSummary } from './types'

const summary = (vertical: string, id: string, name: string, aliases: string[] = []): ServiceSummary => ({
  id, vertical, name, aliases, flow: 'form', title: name, description: name, disclaimer: null,
})

const catalog = {
  categories: [
    { id: 'legal', services: ['debt-relief'] },
    { id: 'financial', services: ['debt-relief', 'mortgage'] },
  ],
  services: [
    summary('financial', 'debt-relief', 'Credit Card Debt'),
    summary('financial', 'mortgage', 'Mortgage', ['home-loan']),
    summary('legal', 'debt-relief', 'Collections and Debt'),
  ],
  site: { states: [{ value: 'TX', label: 'Texas' }] },
} as unknown as CatalogData

describe('matchServicePath', () => {
  it.each([
    ['/services/hvac', { slug: 'hvac', stateCode: undefined }],
    ['/services/hvac/tx', { slug: 'hvac', stateCode: 'tx' }],
    ['/legal/auto-accident', { vertical: 'legal', slug: 'auto-accident', stateCode: undefined }],
    ['/form/hvac/ca', { slug: 'hvac', stateCode: 'ca' }],
  ])('reads %s', (path, expected) => expect(matchServicePath(path)).toEqual(expected))

  it.each(['/', '/about-us', '/category/legal', '/thank-you', '/a/b/c/d'])('ignores %s', (path) =>
    expect(matchServicePath(path)).toBeNull(),
  )
})

describe('findService', () => {
  it('prefers the first category for a slug two verticals share', () => {
    expect(findService(catalog, 'debt-relief')?.name).toBe('Collections and Debt')
    expect(findService(catalog, 'debt-relief', 'financial')?.name).toBe('Credit Card Debt')
  })

  it('finds a service by alias', () => expect(findService(catalog, 'home-loan')?.id).toBe('mortgage'))

  it('finds nothing in the wrong vertical', () => expect(findService(catalog, 'mortgage', 'legal')).toBeUndefined())
})

describe('stateName', () => {
  it('reads a state code in any case', () => expect(stateName(catalog, 'tx')).toBe('Texas'))
  it('ignores unknown codes', () => expect(stateName(catalog, 'zz')).toBeUndefined())
})
