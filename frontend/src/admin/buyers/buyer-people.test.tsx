import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SessionApiError } from '../../shell/session-client'
import { BuyerPeople, type BuyerPerson } from './buyer-people'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, ConsoleError: Error }))

const PATH = '/buyers/b1/people'
const person = (over: Partial<BuyerPerson>): BuyerPerson => ({
  id: 'p1', email: 'jane@leads.example', active: true, hasPassword: true, createdAt: '2026-11-20T10:00:00Z',
  invitedBy: 'admin@servicematch.example', ...over,
})

let people: BuyerPerson[]

beforeEach(() => {
  people = [person({}), person({ id: 'p2', email: 'sam@leads.example', hasPassword: false }),
    person({ id: 'p3', email: 'old@leads.example', active: false })]
  request.mockReset()
  request.mockImplementation(async (method: string, path: string) => {
    if (method === 'GET' && path === PATH) return { items: people }
    return undefined
  })
})

afterEach(cleanup)

describe("a buyer's people in the console", () => {
  it('lists each person with what they can do, and offers admins the right action for each', async () => {
    render(<BuyerPeople buyerId="b1" buyerName="Leads Direct" isAdmin />)
    const region = await screen.findByRole('region', { name: 'People of Leads Direct' })
    expect(await within(region).findByText('jane@leads.example')).toBeTruthy()
    expect(within(region).getByText('Signs in')).toBeTruthy()
    expect(within(region).getByText('Invited, no password yet')).toBeTruthy()
    expect(within(region).getByText('Disabled')).toBeTruthy()
    // Someone who signs in needs no link; someone invited or disabled does; only the active can be disabled.
    expect(screen.queryByRole('button', { name: 'Send the link again to jane@leads.example' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Send the link again to sam@leads.example' }).textContent)
      .toContain('Send the link again')
    expect(screen.getByRole('button', { name: 'Send the link again to old@leads.example' }).textContent)
      .toContain('Invite again')
    expect(screen.queryByRole('button', { name: 'Disable old@leads.example' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Disable jane@leads.example' })).toBeTruthy()
  })

  it('shows an analyst the list without any way to change it', async () => {
    render(<BuyerPeople buyerId="b1" buyerName="Leads Direct" isAdmin={false} />)
    expect(await screen.findByText('jane@leads.example')).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.queryByRole('form', { name: 'Invite a person' })).toBeNull()
  })

  it('invites by e-mail, says the link went out and reads the list again', async () => {
    request.mockImplementation(async (method: string, path: string, body?: { email: string }) => {
      if (method === 'POST') {
        people = [...people, person({ id: 'p4', email: body!.email, hasPassword: false })]
        return { person: people.at(-1), email: { sent: true, error: null } }
      }
      return path === PATH ? { items: people } : undefined
    })
    render(<BuyerPeople buyerId="b1" buyerName="Leads Direct" isAdmin />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('E-mail of the person to invite'), ' new@leads.example ')
    await user.click(screen.getByRole('button', { name: 'Invite' }))
    expect(request).toHaveBeenCalledWith('POST', PATH, { email: 'new@leads.example' })
    expect(await screen.findByText('Invited new@leads.example: the link was e-mailed.')).toBeTruthy()
    expect(await screen.findByText('new@leads.example')).toBeTruthy()
  })

  it("shows the server's word on a refused address beside the field", async () => {
    request.mockImplementation(async (method: string) => {
      if (method === 'POST') {
        throw new SessionApiError(409, 'jane@leads.example is a buyer portal person already.', { fields: { email: 'taken' } })
      }
      return { items: people }
    })
    render(<BuyerPeople buyerId="b1" buyerName="Leads Direct" isAdmin />)
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('E-mail of the person to invite'), 'jane@leads.example')
    await user.click(screen.getByRole('button', { name: 'Invite' }))
    expect(await screen.findByText('jane@leads.example is a buyer portal person already.')).toBeTruthy()
    expect(screen.getByText('taken')).toBeTruthy()
  })

  it('disables only once the admin confirms, then reads the list again', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true)
    render(<BuyerPeople buyerId="b1" buyerName="Leads Direct" isAdmin />)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Disable jane@leads.example' }))
    expect(request).not.toHaveBeenCalledWith('POST', `${PATH}/p1/disable`)
    await user.click(screen.getByRole('button', { name: 'Disable jane@leads.example' }))
    expect(request).toHaveBeenCalledWith('POST', `${PATH}/p1/disable`)
    expect(await screen.findByText('jane@leads.example is disabled.')).toBeTruthy()
    expect(request.mock.calls.filter(([method]) => method === 'GET').length).toBeGreaterThanOrEqual(2)
    confirm.mockRestore()
  })
})
