import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PartnerOptions } from '../../lib/partner-options'
import type { Profile } from '../api'
import { ProfileForm } from './profile-form'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, PortalError: Error, providerPath: (id: string, rest = '') => `/providers/${id}${rest}` }))

const PROFILE: Profile = {
  id: 'p1', name: 'Cool Air LLC', email: 'ana@coolair.example', contactName: null, phone: null,
  services: ['services/hvac'], zips: ['78701'], radiusMiles: 25, states: [], hours: null, dailyCap: null,
  weeklyBudget: null, active: true, pausedBy: null, autoAccept: false, exclusiveLeads: false, minQuality: 40,
  leadPrices: [], mode: 'review', verified: false, licenceNumber: null, licenceState: null, licencesNeeded: [],
  rating: { average: null, count: 0 },
}
const OPTIONS: PartnerOptions = {
  services: [{ id: 'services/hvac', name: 'HVAC', vertical: 'services', verticalName: 'Home services', licence: null }],
  states: [{ value: 'TX', label: 'Texas' }],
}

beforeEach(() => {
  request.mockReset()
  request.mockImplementation(async (_method: string, _path: string, body: object) => ({ ...PROFILE, ...body }))
})

afterEach(cleanup)

describe('the minimum quality score on the profile', () => {
  it('shows the stored minimum, and saves a new one or none', async () => {
    const saved = vi.fn()
    render(<ProfileForm profile={PROFILE} options={OPTIONS} onSaved={saved} />)
    const minimum = screen.getByLabelText('Minimum lead quality score') as HTMLInputElement
    expect(minimum.value).toBe('40')
    const user = userEvent.setup()
    fireEvent.change(minimum, { target: { value: '65' } })
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(request).toHaveBeenLastCalledWith('PATCH', '/providers/p1', expect.objectContaining({ minQuality: 65 }))
    fireEvent.change(minimum, { target: { value: '' } })
    await user.click(screen.getByRole('button', { name: 'Save profile' }))
    expect(request).toHaveBeenLastCalledWith('PATCH', '/providers/p1', expect.objectContaining({ minQuality: null }))
    expect(saved).toHaveBeenCalledTimes(2)
  })

  it('shows the server’s word on it', async () => {
    request.mockRejectedValue(Object.assign(new Error('The profile was not saved.'), {
      fields: { minQuality: 'Input should be less than or equal to 100' } }))
    render(<ProfileForm profile={PROFILE} options={OPTIONS} onSaved={() => undefined} />)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('Input should be less than or equal to 100')).toBeTruthy()
  })
})
