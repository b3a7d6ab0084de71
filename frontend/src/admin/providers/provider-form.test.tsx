import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Provider } from '../types'
import { ProviderForm } from './provider-form'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, ConsoleError: Error }))

const PROVIDER: Provider = {
  id: 'p1', name: 'Cool Air', email: 'dispatch@coolair.example', webhookUrl: null, hasWebhookSecret: false,
  services: ['hvac'], states: ['TX'], zips: [], radiusMiles: null, dailyCap: null, active: true, paused: false,
  leadsToday: 0, mode: 'direct', pausedBy: null, licenceNumber: null, licenceState: null, verified: false,
  portalAccount: 'none', leadPriceCents: null, creditCapPercent: 20, minQuality: 55, terms: 'prepaid',
  creditLimit: null, netDays: 15, balance: 0, available: 0, hold: null, heldSince: null,
}

beforeEach(() => {
  request.mockReset()
  request.mockResolvedValue(undefined)
})

afterEach(cleanup)

describe("a provider's minimum quality score in the console", () => {
  it('shows the stored minimum and sends a change, an empty field as any score', async () => {
    render(<ProviderForm provider={PROVIDER} onSaved={() => undefined} onCancel={() => undefined} />)
    const minimum = screen.getByLabelText('Minimum quality score') as HTMLInputElement
    expect(minimum.value).toBe('55')
    const user = userEvent.setup()
    fireEvent.change(minimum, { target: { value: '80' } })
    await user.click(screen.getByRole('button', { name: 'Save provider' }))
    expect(request).toHaveBeenLastCalledWith('PATCH', '/providers/p1', expect.objectContaining({ minQuality: 80 }))
    fireEvent.change(minimum, { target: { value: '' } })
    await user.click(screen.getByRole('button', { name: 'Save provider' }))
    expect(request).toHaveBeenLastCalledWith('PATCH', '/providers/p1', expect.objectContaining({ minQuality: null }))
  })

  it('starts a new provider at any score', async () => {
    render(<ProviderForm provider={null} onSaved={() => undefined} onCancel={() => undefined} />)
    expect((screen.getByLabelText('Minimum quality score') as HTMLInputElement).value).toBe('')
    for (const [label, value] of [['Name', 'Cool Air'], ['Contact e-mail', 'a@coolair.example'], ['Services', 'hvac']]) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } })
    }
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save provider' }))
    expect(request).toHaveBeenCalledWith('POST', '/providers', expect.objectContaining({ minQuality: null }))
  })
})
