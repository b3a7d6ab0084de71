import { describe, expect, it } from 'vitest'
import { paths } from '../lib/paths'
import { isFunnelPath } from './routes'

describe('isFunnelPath', () => {
  it.each(['/form/hvac', '/form/hvac/tx', '/call/final-expense-ib', '/call-thanks', '/thank-you', '/disqualified'])(
    'treats %s as a funnel page',
    (path) => expect(isFunnelPath(path)).toBe(true),
  )

  it.each(['/', '/services/hvac', '/legal/auto-accident/tx', '/category/legal', '/formal', '/about-us'])(
    'treats %s as a site page',
    (path) => expect(isFunnelPath(path)).toBe(false),
  )
})

describe('paths', () => {
  it('lower-cases the state segment', () => {
    expect(paths.service('legal', 'auto-accident', 'TX')).toBe('/legal/auto-accident/tx')
    expect(paths.form('hvac')).toBe('/form/hvac')
  })
})
