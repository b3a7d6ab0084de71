import { beforeEach, describe, expect, it } from 'vitest'
import { STORAGE_KEYS } from './storage-keys'
import { captureUrlParams, storedAttribution, storedBaseFields } from './url-params'

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
