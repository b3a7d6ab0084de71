import { cleanup, render, screen, within } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import MarketingPartnersModal from './marketing-partners'

const CURRENT = {
  version: '20261127T232412.123Z-1a2b3c4d',
  note: 'This list may be updated from time to time.',
  partners: ['Acme Home Quotes LLC', 'Northwind Leads Inc.'],
}

let answer: Response
let fetched: string[]

beforeEach(() => {
  fetched = []
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    fetched.push(url)
    return answer
  }))
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open() {
  render(
    <MemoryRouter initialEntries={['/marketing-partners']}>
      <Routes>
        <Route path="/marketing-partners" element={<MarketingPartnersModal />} />
      </Routes>
    </MemoryRouter>,
  )
}

describe('the marketing-partners modal', () => {
  it('shows the list the server publishes now, companies included', async () => {
    answer = new Response(JSON.stringify(CURRENT), { status: 200 })
    open()

    const list = await screen.findByRole('list', { name: 'Marketing partners' })
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CURRENT.partners)
    expect(screen.getByText(CURRENT.note)).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
    expect(fetched).toEqual(['/api/marketing-partners'])
  })

  it('says so when the list cannot be read, instead of loading for ever', async () => {
    answer = new Response('{}', { status: 503 })
    open()

    expect(await screen.findByText('The list could not be loaded. Please try again in a moment.')).toBeTruthy()
  })
})
