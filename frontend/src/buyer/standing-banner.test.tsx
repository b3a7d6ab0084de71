import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AccountStanding } from '../shell/account-standing'
import { StandingBanner, StandingFacts } from './standing-banner'
import { stubApi } from './test-api'

const RECEIVING: AccountStanding = {
  terms: 'prepaid', termsText: 'Prepaid', creditLimit: null, netDays: 15, balance: 120.5, available: 120.5,
  receivingLeads: true, hold: null, heldSince: null, why: null, whatToDo: null,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(standing: AccountStanding, what: 'banner' | 'facts' = 'banner') {
  const calls = stubApi({ 'GET /api/buyer/account/standing': { status: 200, body: standing } })
  render(<MemoryRouter>{what === 'banner' ? <StandingBanner /> : <StandingFacts />}</MemoryRouter>)
  return calls
}

describe('the standing banner', () => {
  it('says nothing while leads come', async () => {
    const calls = open(RECEIVING)
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('says leads have stopped, why, what to do, and links to the invoices for an overdue one', async () => {
    open({
      ...RECEIVING, terms: 'credit', termsText: 'Credit, no limit, invoices due in 15 days', available: null,
      receivingLeads: false, hold: 'overdue', heldSince: '2026-11-20T06:00:00Z',
      why: 'invoice 1042 is past due (due November 1, 2026)', whatToDo: 'Pay invoice 1042: leads start again once the payment is recorded.',
    })
    const banner = await screen.findByRole('status')
    expect(banner.textContent).toContain('You are not receiving leads: invoice 1042 is past due (due November 1, 2026).')
    expect(banner.textContent).toContain('Pay invoice 1042')
    expect(screen.getByRole('link', { name: 'Your invoices' }).getAttribute('href')).toBe('/invoices')
  })

  it('sends a buyer without funds to its balance', async () => {
    open({ ...RECEIVING, balance: 0, available: 0, receivingLeads: false, hold: 'funds',
      why: 'your balance of $0.00 does not cover the price of a lead', whatToDo: 'Add funds, and leads start again at once.' })
    expect((await screen.findByRole('link', { name: 'Add funds' })).getAttribute('href')).toBe('/billing')
  })
})

describe('the standing facts', () => {
  it('show the terms, the balance and what may still be spent', async () => {
    open({ ...RECEIVING, terms: 'credit', termsText: 'Credit, limit $5,000.00, invoices due in 30 days', balance: -250,
      available: 4750 }, 'facts')
    expect(await screen.findByText('Credit, limit $5,000.00, invoices due in 30 days')).toBeTruthy()
    expect(screen.getByText('-$250.00')).toBeTruthy()
    expect(screen.getByText('$4,750.00')).toBeTruthy()
  })

  it('say "No limit" for credit without one', async () => {
    open({ ...RECEIVING, terms: 'credit', termsText: 'Credit, no limit, invoices due in 15 days', available: null }, 'facts')
    expect(await screen.findByText('No limit')).toBeTruthy()
  })
})
