import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ChoosePasswordPage } from './portal-sign-in'
import { SessionApiError, type SessionClient } from './session-client'
import { TwoStepCard } from './two-step-card'

afterEach(cleanup)

function clientAnswering(answers: (() => Promise<unknown>)[]) {
  const request = vi.fn((_method: string, _path: string, _body?: unknown) => answers.shift()!())
  const client: SessionClient = { request: request as SessionClient['request'], setCsrfToken: vi.fn(), setSignedOutHandler: vi.fn() }
  return { client, request }
}

// The page reads its token from the address's fragment, as the mailed link opens it.
function openChoosePassword(page: string, token: string, answers: (() => Promise<unknown>)[]) {
  window.history.replaceState(null, '', token ? `${page}#${token}` : page)
  const { client, request } = clientAnswering(answers)
  const signedIn = vi.fn()
  render(
    <MemoryRouter initialEntries={[page]}>
      <Routes>
        <Route path={page} element={
          <ChoosePasswordPage client={client} audience="for testers" welcome signedIn={signedIn} forgotPath="/forgot" landingPath="/home" />
        } />
        <Route path="/home" element={<p>The first page</p>} />
      </Routes>
    </MemoryRouter>,
  )
  return { request, signedIn }
}

async function choose(user: ReturnType<typeof userEvent.setup>, password: string, again = password) {
  await user.type(screen.getByLabelText('New password'), password)
  await user.type(screen.getByLabelText('The same password again'), again)
  await user.click(screen.getByRole('button', { name: 'Save and sign in' }))
}

describe('choosing a password through a mailed link', () => {
  it('asks for the code the account needs, then signs in and opens the first page', async () => {
    const session = { csrfToken: 'c' }
    const { request, signedIn } = openChoosePassword('/welcome-totp', 'the-token', [
      async () => {
        throw new SessionApiError(401, 'Enter the 6-digit code from your authenticator app.', { totpRequired: true })
      },
      async () => session,
    ])
    expect(window.location.hash).toBe('')
    expect(screen.getByText('for testers')).toBeTruthy()
    const user = userEvent.setup()
    await choose(user, 'correct horse battery')
    expect(request).toHaveBeenLastCalledWith('POST', '/password', { token: 'the-token', password: 'correct horse battery' })
    await user.type(screen.getByLabelText('Authentication code'), '123456')
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/password', { token: 'the-token', password: 'correct horse battery', totp: '123456' })
    expect(signedIn).toHaveBeenCalledWith(session)
    expect(await screen.findByText('The first page')).toBeTruthy()
  })

  it('sends nothing while the two passwords differ, and says what the server found wrong with one', async () => {
    const { request } = openChoosePassword('/welcome-weak', 'the-token', [async () => {
      throw new SessionApiError(422, 'The password needs at least 12 characters.', { fields: { password: 'too short' } })
    }])
    const user = userEvent.setup()
    await choose(user, 'correct horse battery', 'correct horse battery!')
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy()
    expect(request).not.toHaveBeenCalled()
    await user.clear(screen.getByLabelText('The same password again'))
    await user.type(screen.getByLabelText('The same password again'), 'correct horse battery')
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }))
    expect(screen.getByText('The password needs at least 12 characters.')).toBeTruthy()
    expect(screen.getByText('too short')).toBeTruthy()
  })

  it('without a token, leads to asking for a new link', () => {
    const { request } = openChoosePassword('/welcome-none', '', [])
    expect(screen.getByText('This link is not complete. Open it from the e-mail again.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'E-mail me a new link' }).getAttribute('href')).toBe('/forgot')
    expect(request).not.toHaveBeenCalled()
  })
})

describe('the two-step sign-in card', () => {
  it('shows the key to add, then turns two-step sign-in on with the code', async () => {
    const { client, request } = clientAnswering([
      async () => ({ secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' }),
      async () => ({}),
    ])
    const setEnabled = vi.fn()
    render(<TwoStepCard client={client} enabled={false} setEnabled={setEnabled} device="phone" />)
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/account/totp')
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Open in an authenticator app on this phone' })).toBeTruthy()
    await user.type(screen.getByLabelText('Code from the app'), '123456')
    await user.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/account/totp/confirm', { code: '123456' })
    expect(setEnabled).toHaveBeenCalledWith(true)
    expect(screen.getByRole('status').textContent).toMatch(/^Two-step sign-in is on/)
  })

  it('turns it off with the password, or says why not', async () => {
    const { client, request } = clientAnswering([async () => {
      throw new SessionApiError(401, 'The password is not right.')
    }])
    const setEnabled = vi.fn()
    render(<TwoStepCard client={client} enabled setEnabled={setEnabled} device="device" />)
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Your password'), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Turn off' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/account/totp/disable', { password: 'wrong' })
    expect(screen.getByRole('alert').textContent).toBe('The password is not right.')
    expect(setEnabled).not.toHaveBeenCalled()
  })
})
