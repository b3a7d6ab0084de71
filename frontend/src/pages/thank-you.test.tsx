import { act, cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LeadStatus } from '../lib/types'
import ThankYouPage from './thank-you'

const SUCCESS = 'Up to 3 local roofers will reach out shortly.'
const ACCEPTED = { requestId: 'c7d1e2f4-5a6b-4c8d-9e0f-1a2b3c4d5e6f', reference: '7K3M-Q9TX', statusToken: 'secret-token' }
const LOADING = 'Processing your answers...'

let answers: (LeadStatus | null)[]
let fetched: { url: string; init?: RequestInit }[]

beforeEach(() => {
  vi.useFakeTimers()
  fetched = []
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    fetched.push({ url, init })
    const answer = answers.length > 1 ? answers.shift()! : answers[0]
    return answer ? new Response(JSON.stringify(answer), { status: 200 }) : new Response('{}', { status: 404 })
  }))
})

afterEach(() => {
  cleanup()
  window.sessionStorage.clear()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

function open(state: object | null) {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/thank-you', state: state && { successMessage: SUCCESS, ...state } }]}>
      <Routes>
        <Route path="/thank-you" element={<ThankYouPage />} />
        <Route path="/" element={<p>Home page</p>} />
      </Routes>
    </MemoryRouter>,
  )
}

const after = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const status = (finished: boolean, companies: string[] = [], receiptEmail = true, offered = 0): LeadStatus =>
  ({ reference: ACCEPTED.reference, finished, companies, ratings: [], receiptEmail, offered, service: 'Roofing', review: 'none' })

describe('the thank-you page', () => {
  it('names who received the request, with the service’s message, once routing has finished', async () => {
    answers = [status(false), status(true, ['Cool Air', 'Lone Star Roofing'])]
    open(ACCEPTED)
    await after(3900)
    expect(screen.getByText(LOADING)).toBeTruthy()
    await after(100)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Success!')
    expect(screen.getByText(SUCCESS)).toBeTruthy()
    expect(screen.getByText('7K3M-Q9TX')).toBeTruthy()
    const who = screen.getByRole('region', { name: 'Who will contact you' })
    expect(who.textContent).toContain('Cool Air')
    expect(who.textContent).toContain('Lone Star Roofing')
    expect(screen.getByText('Expect a call or text')).toBeTruthy()
    // Asked twice (under way, then finished), the token in a header and never in the address.
    expect(fetched).toHaveLength(2)
    expect(fetched[0].url).toBe(`/api/leads/${ACCEPTED.requestId}/status`)
    expect(fetched[0].init).toMatchObject({ headers: { 'X-Status-Token': 'secret-token' } })
  })

  it('says plainly that nobody has the request, and that an e-mail follows, when nobody received it', async () => {
    answers = [status(true, [], true)]
    open(ACCEPTED)
    await after(4000)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We have your request')
    expect(screen.getByText('Your request is saved, but no company has it yet. We are e-mailing you a copy of it.')).toBeTruthy()
    expect(screen.queryByText(SUCCESS)).toBeNull()
    expect(screen.queryByText('Expect a call or text')).toBeNull()
    expect(screen.getByText('Check your e-mail')).toBeTruthy()
    expect(fetched).toHaveLength(1)
  })

  it('says that pros weighing an offer have the job but not the contact details, naming nobody', async () => {
    answers = [status(true, [], true, 2)]
    open(ACCEPTED)
    await after(4000)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We have your request')
    expect(screen.getByText('Your request is with 2 local pros, who can see the job but not your contact details. '
      + 'When one takes it on, we will e-mail you its name.')).toBeTruthy()
    expect(screen.queryByText(SUCCESS)).toBeNull()
    expect(screen.queryByText('Expect a call or text')).toBeNull()
  })

  it('adds that one more pro may take the request on beside those who have it', async () => {
    answers = [status(true, ['Cool Air'], true, 1)]
    open(ACCEPTED)
    await after(4000)
    expect(screen.getByText(SUCCESS)).toBeTruthy()
    expect(screen.getByText('More pros may take it on')).toBeTruthy()
    expect(screen.getByText('One more local pro sees your job, without your contact details. '
      + 'If one takes it on, we will e-mail you its name.')).toBeTruthy()
  })

  it('promises no e-mail when none is on its way', async () => {
    answers = [status(true, [], false)]
    open(ACCEPTED)
    await after(4000)
    expect(screen.getByText('Your request is saved, but no company has it yet.')).toBeTruthy()
    expect(screen.queryByText('Check your e-mail')).toBeNull()
  })

  it('waits a little longer while routing is under way, then says only that the request is saved', async () => {
    answers = [status(false)]
    open(ACCEPTED)
    await after(6000)
    expect(screen.getByText(LOADING)).toBeTruthy()
    await after(2000)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We have your request')
    expect(screen.getByText(/We are still finding who can help you\. An e-mail will follow/)).toBeTruthy()
    expect(screen.queryByText(SUCCESS)).toBeNull()
    const polls = fetched.length
    expect(polls).toBeGreaterThan(10)
    await after(5000)
    expect(fetched).toHaveLength(polls) // it stopped asking
  })

  it('says what each company is: a lead buyer that may pass the request on, a provider, a checked licence', async () => {
    answers = [{
      ...status(true, ['Acme Home Quotes LLC', 'Lone Star Roofing', 'Hill Country Roofs']),
      recipients: [
        { name: 'Acme Home Quotes LLC', kind: 'buyer', licenceChecked: false },
        { name: 'Lone Star Roofing', kind: 'provider', licenceChecked: true },
        { name: 'Hill Country Roofs', kind: 'provider', licenceChecked: false },
      ],
    }]
    open(ACCEPTED)
    await after(4000)
    const items = screen.getByRole('region', { name: 'Who will contact you' }).querySelectorAll('li')
    expect([...items].map((item) => item.textContent)).toEqual([
      'Acme Home Quotes LLCA lead buyer, which may pass your request on to companies that offer Roofing',
      'Lone Star RoofingLicence checkedA provider in our network that offers Roofing',
      'Hill Country RoofsA provider in our network that offers Roofing',
    ])
  })

  it('draws the same page after a reload, from what this tab kept, and goes home without it', async () => {
    answers = [status(true, ['Cool Air'])]
    open(ACCEPTED)
    await after(4000)
    expect(screen.getByText('7K3M-Q9TX')).toBeTruthy()
    cleanup()
    // A reload in a router that lost the navigation's state: the kept copy draws the page.
    open(null)
    await after(4000)
    expect(screen.getByText('7K3M-Q9TX')).toBeTruthy()
    expect(screen.getByText(SUCCESS)).toBeTruthy()
    expect(fetched.at(-1)?.init).toMatchObject({ headers: { 'X-Status-Token': 'secret-token' } })
    // Only what the page shows or the submit answer gave is kept.
    expect(JSON.parse(window.sessionStorage.getItem('serviceMatchThankYou') ?? '{}')).toEqual({ successMessage: SUCCESS, ...ACCEPTED })
    cleanup()
    window.sessionStorage.clear()
    open(null)
    expect(screen.getByText('Home page')).toBeTruthy()
  })

  it('asks nothing without a status token, and claims nothing after the 4 s', async () => {
    answers = [null]
    open({ reference: ACCEPTED.reference })
    await after(4000)
    expect(fetched).toHaveLength(0)
    expect(screen.getByText('Your request is saved. We are still finding who can help you.')).toBeTruthy()
  })
})
