import { beforeEach, describe, expect, it } from 'vitest'
import { STORAGE_KEYS } from './storage-keys'
import { captureUrlParams, storedAttribution, storedBaseFields } from './url-params'

const visit = (url: string, state: unknown = null) => window.history.replaceState(state, '', url)

describe('captureUrlParams', () => {
  beforeEach(() => window.localStorage.clear())

  it('stores attribution and base fields that are present', () => {
    captureUrlParams('?subid1=abc&fbclid=fb1&first=Ann&zip=78701&utm_source=x')
    expect(storedAttribution()).toEqual({ subid1: 'abc', subid2: '', fbclid: 'fb1', externalid: '' })
    expect(storedBaseFields()).toEqual({ first: 'Ann', zip: '78701' })
    expect(window.localStorage.getItem(STORAGE_KEYS.urlParams)).not.toContain('utm_source')
  })

  it('keeps earlier values when a later URL does not carry them', () => {
    captureUrlParams('?subid1=abc&subid2=def')
    captureUrlParams('?subid2=ghi')
    captureUrlParams('')
    expect(storedAttribution()).toMatchObject({ subid1: 'abc', subid2: 'ghi' })
  })

  it('writes nothing for a URL without known parameters', () => {
    captureUrlParams('?page=2')
    expect(window.localStorage.getItem(STORAGE_KEYS.urlParams)).toBeNull()
    expect(window.localStorage.getItem(STORAGE_KEYS.formBaseFields)).toBeNull()
  })
})

describe('personal parameters in the address bar', () => {
  beforeEach(() => window.localStorage.clear())

  it('are taken out once read; attribution, other parameters and the hash stay', () => {
    visit('/form/hvac?first=Ann&Email=ann%40example.com&phone=5125550142&subid1=abc&zip=78701&page=2#step')
    captureUrlParams(window.location.search)
    expect(storedBaseFields()).toEqual({ first: 'Ann', phone: '5125550142', zip: '78701' })
    expect(window.location.pathname).toBe('/form/hvac')
    expect(window.location.search).toBe('?subid1=abc&page=2')
    expect(window.location.hash).toBe('#step')
    expect(window.location.href).not.toMatch(/Ann|example\.com|5125550142|78701/)
  })

  it("keep the router's history state and leave a clean URL alone", () => {
    const state = { usr: null, key: 'k1', idx: 3 }
    visit('/services/hvac?last=Lee&address1=500%20Congress', state)
    captureUrlParams(window.location.search)
    expect(window.history.state).toEqual(state)
    expect(window.location.search).toBe('')
    visit('/services/hvac?subid2=x', state)
    const before = window.history.length
    captureUrlParams(window.location.search)
    expect(window.location.search).toBe('?subid2=x')
    expect(window.history.length).toBe(before)
  })
})
