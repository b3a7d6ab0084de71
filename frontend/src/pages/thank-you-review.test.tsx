import { act, cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REVIEW_WORDS } from '../features/lead-status/lead-status'
import type { LeadStatus } from '../lib/types'
import CallThanksPage from './call-thanks'
import ThankYouPage from './thank-you'

const SUCCESS = 'Up to 3 local roofers will reach out shortly.'
const ACCEPTED = { requestId: 'c7d1e2f4-5a6b-4c8d-9e0f-1a2b3c4d5e6f', reference: '7K3M-Q9TX', statusToken: 'secret-token' }

let answer: LeadStatus
let asked = 0

beforeEach(() => {
  vi.useFakeTimers()
  asked = 0
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    if (!String(url).includes('/status')) return new Response('{}', { status: 404 })
    asked += 1
    return new Response(JSON.stringify(answer), { status: 200 })
  }))
})

afterEach(() => {
  cleanup()
  window.sessionStorage.clear()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const held = (review: LeadStatus['review'], receiptEmail: boolean): LeadStatus => ({
  reference: ACCEPTED.reference, finished: true, companies: [], ratings: [], recipients: [], receiptEmail, offered: 0,
  service: 'Roofing', review,
})

async function open() {
  render(
    <MemoryRouter initialEntries={[{ pathname: '/thank-you', state: { successMessage: SUCCESS, ...ACCEPTED } }]}>
      <Routes><Route path="/thank-you" element={<ThankYouPage />} /></Routes>
    </MemoryRouter>,
  )
  await act(() => vi.advanceTimersByTimeAsync(4000))
}

describe('the thank-you page of a request the quality gate held', () => {
  it('says the request is being checked, names no company and promises nothing', async () => {
    answer = held('reviewing', false)
    await open()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('We have your request')
    expect(screen.getByText(REVIEW_WORDS.reviewing)).toBeTruthy()
    expect(REVIEW_WORDS.reviewing).toBe('We are checking your request before we pass it on. No company has your contact details.')
    expect(screen.queryByText(SUCCESS)).toBeNull()
    expect(screen.queryByText('Expect a call or text')).toBeNull()
    expect(screen.queryByText('Check your e-mail')).toBeNull()
    expect(screen.queryByRole('region', { name: 'Who will contact you' })).toBeNull()
    expect(asked).toBe(1) // finished for now: it stops asking
  })

  it('says a rejected request was passed on to nobody, and that its copy is being e-mailed', async () => {
    answer = held('declined', true)
    await open()
    expect(screen.getByText(`${REVIEW_WORDS.declined} We are e-mailing you a copy of your request.`)).toBeTruthy()
    expect(screen.getByText('Check your e-mail')).toBeTruthy()
    expect(screen.queryByText(SUCCESS)).toBeNull()
  })

  it('tells a released request that reached a company as any other', async () => {
    answer = { ...held('none', true), companies: ['Cool Air'] }
    await open()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Success!')
    expect(screen.queryByText(REVIEW_WORDS.reviewing)).toBeNull()
  })
})

describe('the call thank-you page of a request the quality gate held', () => {
  it('says the request is being checked, and names no company', async () => {
    answer = held('reviewing', false)
    render(
      <MemoryRouter initialEntries={[{ pathname: '/call-thanks', state: { phoneNumber: '8005550100', ...ACCEPTED } }]}>
        <Routes><Route path="/call-thanks" element={<CallThanksPage />} /></Routes>
      </MemoryRouter>,
    )
    await act(() => vi.advanceTimersByTimeAsync(1000))
    expect(screen.getByRole('status').textContent).toBe(REVIEW_WORDS.reviewing)
    expect(screen.queryByRole('region', { name: 'Who may call you' })).toBeNull()
  })
})
