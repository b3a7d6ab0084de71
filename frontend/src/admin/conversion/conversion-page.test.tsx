import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ConversionPage from './conversion-page'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', async () => ({ request, ConsoleError: Error, query: (await import('../../shell/use-api')).query }))

const row = {
  key: 'b1', label: 'Acme Leads', sold: 10, withFeedback: 6, contacted: 1, appointment: 1, quoted: 1, soldOn: 2,
  bad: 1, returned: 1,
}

beforeEach(() => {
  request.mockReset()
  request.mockImplementation(async (_method: string, path: string) => ({
    items: path.includes('by=service') ? [{ ...row, key: 'services/hvac', label: 'HVAC' }] : [row],
  }))
})

afterEach(cleanup)

describe('conversion in the console', () => {
  it('shows each buyer with its counts and their share of the leads sold', async () => {
    render(<MemoryRouter><ConversionPage /></MemoryRouter>)
    const line = (await screen.findByRole('rowheader', { name: 'Acme Leads' })).closest('tr') as HTMLElement
    expect(request).toHaveBeenCalledWith('GET', '/conversion?by=buyer')
    expect(within(line).getByText('10')).toBeTruthy()
    expect(within(line).getByText('6 (60%)')).toBeTruthy()
    expect(within(line).getByText('2 (20%)')).toBeTruthy()
  })

  it('groups by service when asked', async () => {
    render(<MemoryRouter><ConversionPage /></MemoryRouter>)
    const user = userEvent.setup()
    await user.selectOptions(await screen.findByLabelText('By'), 'service')
    expect(await screen.findByRole('rowheader', { name: 'HVAC' })).toBeTruthy()
    expect(request).toHaveBeenCalledWith('GET', '/conversion?by=service')
    expect(screen.getByRole('columnheader', { name: 'Service' })).toBeTruthy()
  })
})
