import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { type AccountMoney, TermsFields, termsBody, termsDraftOf, type TermsDraft } from './terms-fields'

afterEach(cleanup)

function Form({ account, errors = {}, seen }: { account: Partial<AccountMoney> | null; errors?: Record<string, string>; seen: (d: TermsDraft) => void }) {
  const [draft, setDraft] = useState(() => termsDraftOf(account))
  return <TermsFields draft={draft} errors={errors} account={account} onChange={(next) => { setDraft(next); seen(next) }} />
}

describe('the terms fields', () => {
  it('start a new account prepaid, invoices due in 15 days, and send no credit limit for prepaid', () => {
    const draft = termsDraftOf(null)
    expect(draft).toEqual({ terms: 'prepaid', creditLimit: '', netDays: '15' })
    expect(termsBody({ ...draft, creditLimit: '500' })).toEqual({ terms: 'prepaid', netDays: 15 })
  })

  it('send an empty credit limit as no limit, and a typed one in dollars', () => {
    expect(termsBody({ terms: 'credit', creditLimit: '', netDays: '30' })).toEqual({ terms: 'credit', creditLimit: null, netDays: 30 })
    expect(termsBody({ terms: 'credit', creditLimit: '2500.50', netDays: '30' })).toEqual({ terms: 'credit', creditLimit: 2500.5, netDays: 30 })
  })

  it('ask for a credit limit only on credit terms, and show the money and any hold read only', async () => {
    let last: TermsDraft | null = null
    render(<Form seen={(d) => { last = d }} account={{ terms: 'prepaid', creditLimit: null, netDays: 15, balance: -12.5,
      available: 0, hold: 'funds', heldSince: null }} />)
    expect(screen.queryByLabelText('Credit limit ($)')).toBeNull()
    expect(screen.getByText('-$12.50')).toBeTruthy()
    expect(screen.getByText(/not receiving leads: its balance and credit do not cover a lead/)).toBeTruthy()
    await userEvent.setup().selectOptions(screen.getByLabelText('Terms'), 'credit')
    expect(screen.getByLabelText('Credit limit ($)')).toBeTruthy()
    expect(last).toEqual({ terms: 'credit', creditLimit: '', netDays: '15' })
  })

  it('show the server\u2019s word on a field in place of its hint', () => {
    render(<Form seen={() => undefined} account={{ terms: 'credit', creditLimit: 100, netDays: 15 }}
      errors={{ creditLimit: 'a credit limit is 0 to $1,000,000.00, or none' }} />)
    expect(screen.getByText('a credit limit is 0 to $1,000,000.00, or none')).toBeTruthy()
    expect(screen.getByLabelText('Credit limit ($)').getAttribute('aria-invalid')).toBe('true')
  })
})
