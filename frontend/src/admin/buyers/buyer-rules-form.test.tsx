import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Buyer } from '../types'
import { BuyerForm } from './buyer-form'
import { rulesBody, rulesDraftOf } from './rule-fields'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({ request, ConsoleError: Error }))

const BUYER: Buyer = {
  id: 'b1', name: 'Bright Leads', active: true, postUrl: 'https://bright.example/post', pingUrl: null,
  mode: 'fixed price', exclusive: false, price: 30, services: [], states: [], zips: [], dailyCap: null,
  monthlyBudget: null, hours: null, bidFloor: null, returnWindowDays: 7, maxReturnPercent: 15, lockedFields: [],
  minQuality: 60, duplicateDays: 45, duplicateMatch: 'either', duplicateScope: 'all', paused: false, pausedAt: null,
  leadsToday: 0, spentThisMonth: 0, terms: 'prepaid', creditLimit: null, netDays: 15, balance: 0, available: 0,
  hold: null, heldSince: null,
}

beforeEach(() => {
  request.mockReset()
  request.mockImplementation(async (_method: string, _path: string, body: object) => ({ ...BUYER, ...body }))
})

afterEach(cleanup)

describe("a buyer's own rules in the console", () => {
  it('start a new buyer at any score with the site’s duplicate rule, and send empty fields as null', () => {
    const draft = rulesDraftOf(null)
    expect(draft).toEqual({ minQuality: '', duplicateDays: '', duplicateMatch: 'phone', duplicateScope: 'service' })
    expect(rulesBody(draft)).toEqual({ minQuality: null, duplicateDays: null, duplicateMatch: 'phone', duplicateScope: 'service' })
    expect(rulesBody({ ...rulesDraftOf(BUYER), minQuality: '0' })).toEqual({
      minQuality: 0, duplicateDays: 45, duplicateMatch: 'either', duplicateScope: 'all' })
  })

  it('shows the stored rules, and saves the changed ones with the rest of the buyer', async () => {
    const saved = vi.fn()
    render(<BuyerForm buyer={BUYER} onSaved={saved} onCancel={() => undefined} />)
    const score = screen.getByLabelText('Minimum quality score') as HTMLInputElement
    expect(score.value).toBe('60')
    expect((screen.getByLabelText('Same person by') as HTMLSelectElement).value).toBe('either')
    fireEvent.change(score, { target: { value: '75' } })
    fireEvent.change(screen.getByLabelText('Duplicates within'), { target: { value: 'service' } })
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save buyer' }))
    expect(request).toHaveBeenCalledWith('PATCH', '/buyers/b1', expect.objectContaining({
      minQuality: 75, duplicateDays: 45, duplicateMatch: 'either', duplicateScope: 'service' }))
    expect(saved).toHaveBeenCalled()
  })

  it('leaves the match and scope unused while the site’s rule applies, and offers both locks', async () => {
    render(<BuyerForm buyer={null} onSaved={() => undefined} onCancel={() => undefined} />)
    expect((screen.getByLabelText('Same person by') as HTMLSelectElement).disabled).toBe(true)
    const user = userEvent.setup()
    fireEvent.change(screen.getByLabelText('Duplicate window (days)'), { target: { value: '30' } })
    expect((screen.getByLabelText('Same person by') as HTMLSelectElement).disabled).toBe(false)
    fireEvent.click(screen.getByLabelText('Score minimum'))
    fireEvent.click(screen.getByLabelText('Duplicate rule'))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New Leads' } })
    fireEvent.change(screen.getByLabelText('Post URL'), { target: { value: 'https://new.example/post' } })
    await user.click(screen.getByRole('button', { name: 'Save buyer' }))
    expect(request).toHaveBeenCalledWith('POST', '/buyers', expect.objectContaining({
      minQuality: null, duplicateDays: 30, lockedFields: ['minQuality', 'duplicateRule'] }))
  })

  it('shows the server’s word on a rule in place of its hint', async () => {
    request.mockRejectedValue(Object.assign(new Error('The buyer is not valid.'), {
      fields: { duplicateDays: 'Input should be less than or equal to 365' } }))
    render(<BuyerForm buyer={BUYER} onSaved={() => undefined} onCancel={() => undefined} />)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save buyer' }))
    expect(await screen.findByText('Input should be less than or equal to 365')).toBeTruthy()
    expect(screen.getByLabelText('Duplicate window (days)').getAttribute('aria-invalid')).toBe('true')
  })
})
