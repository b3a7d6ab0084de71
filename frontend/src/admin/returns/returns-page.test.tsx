import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ReturnsPage from './returns-page'

const request = vi.hoisted(() => vi.fn())
const operator = vi.hoisted(() => ({ isAdmin: true }))
vi.mock('../api', () => ({ request, ConsoleError: Error, query: () => '' }))
vi.mock('../session', () => ({ useOperator: () => operator }))

const waiting = {
  id: 'r1', leadId: 'l1', leadReference: '7K3M-Q9TX', reason: 'wrong_phone', note: 'Disconnected.', status: 'pending',
  price: 42.5, createdAt: '2026-11-27T10:00:00Z', requestedBy: 'jane@leads.example', decidedBy: null, decidedAt: null,
  decisionNote: null, buyerId: 'b1', buyerName: 'Acme Leads',
}

beforeEach(() => {
  operator.isAdmin = true
  request.mockReset()
  request.mockImplementation(async (method: string, path: string, body?: { note?: string }) => {
    if (method === 'GET') return { items: path.includes('status=pending') ? [waiting] : [], nextCursor: null }
    const approving = path.endsWith('/approve')
    return { ...waiting, status: approving ? 'approved' : 'denied', decidedBy: 'admin@servicematch.example',
      decidedAt: '2026-11-28T09:00:00Z', decisionNote: body?.note ?? null }
  })
})

afterEach(cleanup)

const show = () => render(<MemoryRouter><ReturnsPage /></MemoryRouter>)

describe("buyers' returns in the console", () => {
  it('shows a waiting return with its buyer, lead, reason, words, price and who asked', async () => {
    show()
    const card = await screen.findByRole('region', { name: 'Acme Leads: Wrong or disconnected phone' })
    expect(request).toHaveBeenCalledWith('GET', '/returns?status=pending')
    expect(within(card).getByRole('link', { name: '7K3M-Q9TX' }).getAttribute('href')).toBe('/leads/l1')
    expect(within(card).getByText('Disconnected.')).toBeTruthy()
    expect(within(card).getByText('$42.50')).toBeTruthy()
    expect(within(card).getByText(/by jane@leads\.example/)).toBeTruthy()
  })

  it('lets an admin approve, and says what came off the bill', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Approve the return from Acme Leads' }))
    await user.click(screen.getByRole('button', { name: 'Take $42.50 off' }))
    expect(request).toHaveBeenCalledWith('POST', '/returns/r1/approve', {})
    expect(await screen.findByText("Approved: $42.50 off Acme Leads's bill.")).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Deny the return from Acme Leads' })).toBeNull()
  })

  it('asks for a note before a denial', async () => {
    show()
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Deny the return from Acme Leads' }))
    const note = screen.getByLabelText('Why it is denied (the buyer reads it)')
    expect(note.hasAttribute('required')).toBe(true)
    await user.type(note, 'The number answers.')
    await user.click(screen.getByRole('button', { name: 'Deny the return' }))
    expect(request).toHaveBeenCalledWith('POST', '/returns/r1/deny', { note: 'The number answers.' })
    expect(await screen.findByText('Denied: Acme Leads sees your note.')).toBeTruthy()
  })

  it('gives an analyst the queue without a way to decide', async () => {
    operator.isAdmin = false
    show()
    expect(await screen.findByText('Acme Leads: Wrong or disconnected phone')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Approve|Deny/ })).toBeNull()
  })
})
