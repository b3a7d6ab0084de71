import { cleanup, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { QualityPanel } from './quality-panel'

const request = vi.hoisted(() => vi.fn())
vi.mock('../api', () => ({
  request,
  query: (params: Record<string, string>) => {
    const text = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString()
    return text ? `?${text}` : ''
  },
}))

const source = (key: string, reasons: string[]) => ({
  key, label: key, leads: 10, judged: 10, held: 3, heldPct: 30, waiting: 1, rejected: 1, rejectedPct: 10, returned: 2,
  returnedPct: 20, reasons: reasons.map((reason, n) => ({ reason, leads: 5 - n, held: 1, rejected: 0, returned: 0 })),
  returnReasons: [],
})

afterEach(cleanup)

describe("the dashboard's quality panel", () => {
  it("lists each source's shares and top three reasons, over the dashboard's filters", async () => {
    request.mockResolvedValue({
      range: { from: '2026-11-01', to: '2026-11-28' }, total: source('all', []), byService: [],
      bySource: [source('fb-ads', ['email_disposable', 'phone_voip', 'velocity_ip', 'email_role']), source('website', [])],
    })
    render(<MemoryRouter><QualityPanel filters={{ from: '2026-11-01', to: '', source: '' }} /></MemoryRouter>)
    const panel = await screen.findByRole('region', { name: 'Quality: reasons by source' })
    expect(request).toHaveBeenCalledWith('GET', '/quality/measures?from=2026-11-01')
    // The region is drawn while its data loads ("Loading…"); the sources come once the request answers.
    const fb = (await within(panel).findByText('fb-ads')).closest('li')!
    expect(fb.textContent).toContain('10 leads · held 30.0% · returned 20.0%')
    expect([...fb.querySelectorAll('ol li')].map((li) => li.textContent)).toEqual([
      'Disposable e-mail address5', 'VoIP phone number4', 'Same device address on many leads3'])
    expect(within(panel).getByText('No reasons flagged.')).toBeTruthy()
    expect(within(panel).getByRole('link', { name: 'All measures' }).getAttribute('href')).toBe('/quality?from=2026-11-01')
  })
})
