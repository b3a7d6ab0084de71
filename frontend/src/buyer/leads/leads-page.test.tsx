import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource, stubApi } from '../test-api'
import type { BuyerLeadRow } from '../types'
import LeadsPage from './leads-page'

const row = (id: string, reference: string, status: BuyerLeadRow['status'] = 'sold'): BuyerLeadRow => ({
  id, reference, boughtAt: '2026-11-26T15:00:00Z', vertical: 'services', service: 'hvac', serviceName: 'HVAC', state: 'TX',
  zip: '78701', price: 18.75, exclusive: true, status, feedback: null,
})

beforeEach(() => {
  FakeEventSource.opened = []
  vi.stubGlobal('EventSource', FakeEventSource)
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(path: string) {
  const router = createMemoryRouter([{ path: '/leads', element: <LeadsPage /> }], { initialEntries: [path] })
  render(<RouterProvider router={router} />)
  return router
}

const table = () => screen.findByRole('table', { name: 'Leads bought, newest first' })

describe('the leads page', () => {
  it('asks for the filters in the address, pages with "Load more", and exports the same filters', async () => {
    const calls = stubApi({
      'GET /api/buyer/leads?state=TX&status=returned&limit=50': { status: 200, body: { items: [row('1', 'AAAA-1111', 'returned')], nextCursor: 'c1' } },
      'GET /api/buyer/leads?state=TX&status=returned&limit=50&cursor=c1': { status: 200, body: { items: [row('2', 'BBBB-2222', 'returned')], nextCursor: null } },
      'GET /api/catalog': { status: 200, body: { services: [], site: { states: [{ value: 'TX', label: 'Texas' }] } } },
    })
    open('/leads?state=tx&status=returned&bogus=1')
    expect(await within(await table()).findByRole('link', { name: 'AAAA-1111' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/buyer/leads.csv?state=TX&status=returned')
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('returned')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(await table()).findByRole('link', { name: 'BBBB-2222' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
    expect(calls.filter((call) => call.path.startsWith('/api/buyer/leads'))).toHaveLength(2)
  })

  it('shows a lead bought while it is open at the top, marked new, and says so', async () => {
    let first = [row('1', 'AAAA-1111')]
    stubApi({ 'GET /api/buyer/leads?limit=50': () => ({ status: 200, body: { items: first, nextCursor: null } }) })
    open('/leads')
    await within(await table()).findByRole('link', { name: 'AAAA-1111' })
    const [stream] = FakeEventSource.opened
    expect(stream.url).toBe('/api/buyer/events')
    first = [row('9', 'NEWW-9999'), row('1', 'AAAA-1111')]
    await act(async () => stream.send('lead.bought', { id: '9', reference: 'NEWW-9999' }))
    expect(await within(await table()).findByRole('link', { name: 'NEWW-9999' })).toBeTruthy()
    const rows = within(await table()).getAllByRole('row')
    expect(rows[1].textContent).toContain('NEWW-9999')
    expect(rows[1].textContent).toContain('New')
    expect(rows[2].textContent).not.toContain('New')
    expect(screen.getByText('New lead bought: NEWW-9999')).toBeTruthy()
    // The stream dropped and came back: what was bought meanwhile is read again.
    first = [row('8', 'MISS-8888'), ...first]
    await act(async () => stream.send('open', {}))
    expect(await within(await table()).findByRole('link', { name: 'MISS-8888' })).toBeTruthy()
    expect(within(await table()).getAllByRole('row')[1].textContent).toContain('New')
  })

  it('says when no lead matches, and clears the filters', async () => {
    stubApi({
      'GET /api/buyer/leads?service=hvac&limit=50': { status: 200, body: { items: [], nextCursor: null } },
      'GET /api/buyer/leads?limit=50': { status: 200, body: { items: [row('1', 'AAAA-1111')], nextCursor: null } },
    })
    const router = open('/leads?service=hvac')
    expect(await screen.findByText('No leads match these filters.')).toBeTruthy()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(await within(await table()).findByRole('link', { name: 'AAAA-1111' })).toBeTruthy()
    expect(router.state.location.search).toBe('')
  })
})
