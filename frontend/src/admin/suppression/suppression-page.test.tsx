import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SessionApiError } from '../../shell/session-client'
import type { Imported, SuppressionList } from './import-summary'
import SuppressionPage from './suppression-page'

const request = vi.hoisted(() => vi.fn())
const operator = vi.hoisted(() => ({ isAdmin: true }))
vi.mock('../api', () => ({ request, ConsoleError: Error }))
vi.mock('../session', () => ({ useOperator: () => operator }))

const list = (over: Partial<SuppressionList>): SuppressionList => ({
  id: 1, name: 'litigators', kind: 'phone', buyerId: null, buyerName: null, description: 'TCPA litigators',
  entryCount: 1250, createdAt: '2026-11-20T10:00:00Z', createdBy: 'admin@servicematch.example', ...over,
})

let lists: SuppressionList[]

function imported(over: Partial<Imported>): Imported {
  return { list: lists[0], created: false, lines: 4, valid: 3, added: 2, unchanged: 1, bad: 1, badLines: [3], blank: 0,
    removed: 0, seconds: 0.1, ...over }
}

beforeEach(() => {
  operator.isAdmin = true
  lists = [list({}), list({ id: 2, name: 'ld-customers', kind: 'email', buyerId: 'b1', buyerName: 'Leads Direct',
    description: null, entryCount: 3 })]
  request.mockReset()
  request.mockImplementation(async (method: string, path: string) => {
    if (method === 'GET' && path === '/suppression-lists') return { items: lists }
    if (method === 'GET' && path === '/buyers') return { items: [{ id: 'b1', name: 'Leads Direct' }] }
    return undefined
  })
})

afterEach(cleanup)

const fileOf = (text: string, name = 'list.txt') => new File([text], name, { type: 'text/plain' })

// Each form test types, chooses and uploads: on a busy machine that takes more than the default 5 s.
describe('suppression lists in the console', { timeout: 15_000 }, () => {
  it('lists every list with what it holds, whom it applies to and its size', async () => {
    render(<SuppressionPage />)
    const table = await screen.findByRole('table', { name: 'Suppression lists' })
    const [, global, buyers] = within(table).getAllByRole('row')
    expect(within(global).getByText('litigators')).toBeTruthy()
    expect(within(global).getByText('TCPA litigators')).toBeTruthy()
    expect(within(global).getByText('Phones')).toBeTruthy()
    expect(within(global).getByText('Every buyer')).toBeTruthy()
    expect(within(global).getByText('1,250')).toBeTruthy()
    expect(within(buyers).getByText('Leads Direct only')).toBeTruthy()
    expect(within(buyers).getByText('E-mails')).toBeTruthy()
  })

  it('shows an analyst the lists without any way to change them', async () => {
    operator.isAdmin = false
    render(<SuppressionPage />)
    expect(await screen.findByText('litigators')).toBeTruthy()
    expect(screen.queryByRole('form', { name: 'Import a suppression list' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull()
    expect(request).not.toHaveBeenCalledWith('GET', '/buyers')
  })

  it("imports a buyer's hashed file as its text, says what it did and reads the lists again", async () => {
    request.mockImplementation(async (method: string, path: string) => {
      if (method === 'POST') return imported({ created: true, list: list({ id: 3, name: 'quote-co' }) })
      if (path === '/buyers') return { items: [{ id: 'b1', name: 'Leads Direct' }] }
      return { items: lists }
    })
    render(<SuppressionPage />)
    const user = userEvent.setup({ delay: null })
    const form = await screen.findByRole('form', { name: 'Import a suppression list' })
    await user.type(within(form).getByLabelText('List'), 'quote-co')
    await user.selectOptions(within(form).getByLabelText('File holds'), 'sha256')
    await user.selectOptions(within(form).getByLabelText('Kind of entries'), 'email')
    await within(form).findByRole('option', { name: 'Leads Direct only' })
    await user.selectOptions(within(form).getByLabelText('Applies to'), 'b1')
    await user.upload(within(form).getByLabelText('File'), fileOf('a1b2\nc3d4\n'))
    await user.click(within(form).getByRole('button', { name: 'Import' }))
    expect(request).toHaveBeenCalledWith('POST', '/suppression-lists/import', {
      name: 'quote-co', content: 'a1b2\nc3d4\n', replace: false, hashed: 'sha256', kind: 'email', buyerId: 'b1',
    })
    expect(await screen.findByText(
      'New list quote-co: 2 entries added; 1 line already on the list or repeated; 1 bad line skipped (line 3).')).toBeTruthy()
    expect(request.mock.calls.filter(([method, path]) => method === 'GET' && path === '/suppression-lists').length)
      .toBeGreaterThanOrEqual(2)
  })

  it('adds to an existing list without asking its kind or buyer again, and can replace it', async () => {
    request.mockImplementation(async (method: string, path: string) => {
      if (method === 'POST') return imported({ removed: 1250, added: 3, unchanged: 0, bad: 0, badLines: [] })
      return path === '/buyers' ? { items: [] } : { items: lists }
    })
    render(<SuppressionPage />)
    const user = userEvent.setup({ delay: null })
    const form = await screen.findByRole('form', { name: 'Import a suppression list' })
    await screen.findByText('1,250')
    await user.type(within(form).getByLabelText(/^List/), 'Litigators')
    expect(within(form).queryByLabelText('Kind of entries')).toBeNull()
    expect(within(form).queryByLabelText('Applies to')).toBeNull()
    expect(within(form).getByText('Adds to litigators (phones)')).toBeTruthy()
    await user.click(within(form).getByLabelText(/Replace the list/))
    await user.upload(within(form).getByLabelText('File'), fileOf('5125550142\n'))
    await user.click(within(form).getByRole('button', { name: 'Import' }))
    expect(request).toHaveBeenCalledWith('POST', '/suppression-lists/import',
      { name: 'Litigators', content: '5125550142\n', replace: true })
    expect(await screen.findByText('Imported into litigators: 3 entries added; 1,250 entries removed first.')).toBeTruthy()
  })

  it("shows the server's word beside the field it is about", async () => {
    request.mockImplementation(async (method: string, path: string) => {
      if (method === 'POST') {
        throw new SessionApiError(422, 'None of the 2 lines is a SHA-256 digest: nothing was imported.',
          { fields: { content: 'no valid line' } })
      }
      return path === '/buyers' ? { items: [] } : { items: lists }
    })
    render(<SuppressionPage />)
    const user = userEvent.setup({ delay: null })
    const form = await screen.findByRole('form', { name: 'Import a suppression list' })
    await user.type(within(form).getByLabelText(/^List/), 'new-list')
    await user.selectOptions(within(form).getByLabelText('File holds'), 'sha256')
    await user.selectOptions(within(form).getByLabelText(/Kind of entries/), 'phone')
    await user.upload(within(form).getByLabelText(/^File$/), fileOf('5125550142\n5125550143\n'))
    await user.click(within(form).getByRole('button', { name: 'Import' }))
    expect(await screen.findByText('None of the 2 lines is a SHA-256 digest: nothing was imported.')).toBeTruthy()
    expect(screen.getByText('no valid line')).toBeTruthy()
  })

  it('removes a list only once the admin confirms', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true)
    request.mockImplementation(async (method: string, path: string) => {
      if (method === 'DELETE') {
        lists = lists.slice(1)
        return { id: 1, name: 'litigators', entriesRemoved: 1250 }
      }
      return path === '/buyers' ? { items: [] } : { items: lists }
    })
    render(<SuppressionPage />)
    const user = userEvent.setup({ delay: null })
    await user.click(await screen.findByRole('button', { name: 'Remove the list litigators' }))
    expect(confirm).toHaveBeenCalledWith('Remove litigators and its 1,250 entries? Leads on it can be sold again.')
    expect(request).not.toHaveBeenCalledWith('DELETE', '/suppression-lists/1')
    await user.click(screen.getByRole('button', { name: 'Remove the list litigators' }))
    expect(request).toHaveBeenCalledWith('DELETE', '/suppression-lists/1')
    expect(await screen.findByText('Removed litigators (1,250 entries).')).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove the list litigators' })).toBeNull())
    confirm.mockRestore()
  })
})
