import { describe, expect, it } from 'vitest'
import { anyFilter, csvHref, filtersFrom, listPath } from './lead-filters'

describe('the leads filters', () => {
  it('reads the filters from the address, and leaves out what the API would refuse', () => {
    const filters = filtersFrom(new URLSearchParams('from=2026-11-01&to=11/30/2026&service=legal/auto-accident&state=tx&status=returned'))
    expect(filters).toEqual({ from: '2026-11-01', to: '', service: 'legal/auto-accident', state: 'TX', status: 'returned' })
    expect(filtersFrom(new URLSearchParams('status=all&state=Texas&service=<b>'))).toEqual(
      { from: '', to: '', service: '', state: '', status: '' })
  })

  it('sends the same filters to the list and to the CSV export, without empty ones', () => {
    const filters = filtersFrom(new URLSearchParams('service=hvac&status=return_pending'))
    expect(listPath(filters)).toBe('/leads?service=hvac&status=return_pending&limit=50')
    expect(csvHref(filters)).toBe('/api/buyer/leads.csv?service=hvac&status=return_pending')
    const none = filtersFrom(new URLSearchParams(''))
    expect(csvHref(none)).toBe('/api/buyer/leads.csv')
    expect(anyFilter(none)).toBe(false)
    expect(anyFilter(filters)).toBe(true)
  })
})
