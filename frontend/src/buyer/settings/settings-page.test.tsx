import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { stubApi } from '../test-api'
import type { BuyerSettings } from '../types'
import SettingsPage from './settings-page'

const SETTINGS: BuyerSettings = {
  name: 'Lead Co', mode: 'ping-post', pingUrl: 'https://leadco.example/ping', postUrl: 'https://leadco.example/post',
  services: [], states: ['TX'], zips: [], dailyCap: 50, monthlyBudget: null, hours: null, paused: false, bidFloor: 10,
  price: null, exclusive: true, locked: ['bidFloor'], returnWindowDays: 7, maxReturnPercent: 15, minQuality: null,
  duplicateDays: null, duplicateMatch: 'phone', duplicateScope: 'service', secretOverlapUntil: null,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(answers: Parameters<typeof stubApi>[0]) {
  const calls = stubApi({
    'GET /api/buyer/settings': { status: 200, body: SETTINGS },
    'GET /api/buyer/audit?limit=25': { status: 200, body: { items: [], nextCursor: null } },
    ...answers,
  })
  render(<MemoryRouter><SettingsPage /></MemoryRouter>)
  return calls
}

describe('the settings page', () => {
  it('shows a locked field read-only, and saves only what changed', async () => {
    const calls = open({ 'PATCH /api/buyer/settings': { status: 200, body: { ...SETTINGS, dailyCap: 75 } } })
    const form = await screen.findByRole('form', { name: 'What you buy' })
    const floor = within(form).getByLabelText(/Bid floor/) as HTMLInputElement
    expect(floor.disabled).toBe(true)
    expect(within(form).getByText('Locked by ServiceMatch: ask your account manager.')).toBeTruthy()
    const user = userEvent.setup()
    await user.clear(within(form).getByLabelText('Daily cap (leads)'))
    await user.type(within(form).getByLabelText('Daily cap (leads)'), '75')
    await user.click(within(form).getByRole('button', { name: 'Save settings' }))
    expect(await within(form).findByText('Saved. The next auctions use these settings.')).toBeTruthy()
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ dailyCap: 75 })
  })

  it('sets a minimum score and a duplicate rule of its own', async () => {
    const saved = { ...SETTINGS, minQuality: 60, duplicateDays: 30, duplicateMatch: 'either' as const }
    const calls = open({ 'PATCH /api/buyer/settings': { status: 200, body: saved } })
    const form = await screen.findByRole('form', { name: 'What you buy' })
    const match = within(form).getByLabelText('Same person by') as HTMLSelectElement
    // Our rule applies until the buyer gives a window of its own.
    expect(match.disabled).toBe(true)
    const user = userEvent.setup()
    await user.type(within(form).getByLabelText('Minimum quality score'), '60')
    await user.type(within(form).getByLabelText('Duplicate window (days)'), '30')
    expect(match.disabled).toBe(false)
    await user.selectOptions(match, 'either')
    await user.click(within(form).getByRole('button', { name: 'Save settings' }))
    expect(await within(form).findByText('Saved. The next auctions use these settings.')).toBeTruthy()
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ minQuality: 60, duplicateDays: 30, duplicateMatch: 'either' })
  })

  it('shows a duplicate rule the operator locked read-only, each of its fields', async () => {
    open({ 'GET /api/buyer/settings': { status: 200, body: { ...SETTINGS, locked: ['duplicateRule'], duplicateDays: 30 } } })
    const form = await screen.findByRole('form', { name: 'What you buy' })
    for (const label of ['Duplicate window (days)', 'Same person by', 'Duplicates within']) {
      expect((within(form).getByLabelText(new RegExp(label.replace(/[()]/g, '\\$&'))) as HTMLInputElement).disabled).toBe(true)
    }
    expect((within(form).getByLabelText('Minimum quality score') as HTMLInputElement).disabled).toBe(false)
  })

  it('says plainly that nothing changed when a URL test failed, with each test’s result', async () => {
    open({ 'POST /api/buyer/settings/urls': { status: 422, body: {
      error: 'The test post to the new URL failed.', fields: { postUrl: 'HTTP 500' },
      tests: [{ kind: 'post', url: 'https://new.example/post', ok: false, httpStatus: 500, durationMs: 90, error: 'oops' }],
    } } })
    const form = await screen.findByRole('form', { name: 'Ping and post URLs' })
    const user = userEvent.setup()
    await user.clear(within(form).getByLabelText('Post URL'))
    await user.type(within(form).getByLabelText('Post URL'), 'https://new.example/post')
    await user.click(within(form).getByRole('button', { name: 'Test and save' }))
    expect(await within(form).findByText(/Nothing was changed: your current URLs stay in use\./)).toBeTruthy()
    expect(within(form).getByText('Post test failed: HTTP 500 in 90 ms (oops)')).toBeTruthy()
  })

  it('pauses and resumes buying, as the server answers', async () => {
    open({
      'POST /api/buyer/settings/pause': { status: 200, body: { ...SETTINGS, paused: true } },
      'POST /api/buyer/settings/resume': { status: 200, body: { ...SETTINGS, paused: false } },
    })
    const status = await screen.findByRole('region', { name: 'Status' })
    const user = userEvent.setup()
    await user.click(within(status).getByRole('button', { name: 'Pause buying' }))
    expect(await within(status).findByText('Paused')).toBeTruthy()
    await user.click(within(status).getByRole('button', { name: 'Resume buying' }))
    expect(await within(status).findByText('Buying')).toBeTruthy()
  })

  it('rotates the secret only once confirmed, and shows it once with the overlap’s end', async () => {
    const calls = open({ 'POST /api/buyer/settings/secret': { status: 200, body: { secret: 'whsec_new', previousValidUntil: '2026-11-28T12:00:00Z' } } })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Rotate signing secret' }))
    expect(calls.some((call) => call.path === '/api/buyer/settings/secret')).toBe(false)
    await user.click(screen.getByRole('button', { name: 'Rotate now' }))
    expect(await screen.findByText('whsec_new')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeTruthy()
    expect(screen.getByText(/keeps verifying until/)).toBeTruthy()
  })
})
