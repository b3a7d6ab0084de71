import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SessionApiError, type SessionClient } from './session-client'
import { INCOMPLETE, SignInLinkForm } from './sign-in-link'

const SPENT = 'This sign-in link has expired or was used already.'

afterEach(cleanup)

function Notice({ message }: { message: string | null | undefined }) {
  return message ? <p role="alert">{message}</p> : null
}

function open(token: string, answers: (() => Promise<unknown>)[]) {
  const request = vi.fn((_method: string, _path: string, _body?: unknown) => answers.shift()!())
  const client: SessionClient = { request: request as SessionClient['request'], setCsrfToken: vi.fn(), setSignedOutHandler: vi.fn() }
  const signedIn = vi.fn()
  render(
    <SignInLinkForm
      client={client}
      token={token}
      signedIn={signedIn}
      frame={(form) => form}
      formClassName=""
      spentFooter={<a href="/pro">Back to sign in</a>}
      renderField={({ label, input }) => <label>{label}<input {...input} /></label>}
      ErrorNotice={Notice}
      buttonClassName=""
    />,
  )
  return { request, signedIn }
}

describe('the sign-in link page', () => {
  it('sends the token only when asked to, then the code the account needs', async () => {
    const session = { csrfToken: 'c' }
    const { request, signedIn } = open('the-token', [
      async () => {
        throw new SessionApiError(401, 'Enter the 6-digit code from your authenticator app.', { totpRequired: true })
      },
      async () => session,
    ])
    expect(request).not.toHaveBeenCalled()
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/session/link/use', { token: 'the-token' })
    await user.type(screen.getByLabelText('Authentication code'), '123456')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/session/link/use', { token: 'the-token', totp: '123456' })
    expect(signedIn).toHaveBeenCalledWith(session)
  })

  it('says when the link is spent, and leads back to signing in', async () => {
    open('the-token', [async () => {
      throw new SessionApiError(410, SPENT)
    }])
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }))
    expect(screen.getByText(SPENT)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeTruthy()
  })

  it('without a token, asks nothing of the server', () => {
    const { request } = open('', [])
    expect(screen.getByText(INCOMPLETE)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull()
    expect(request).not.toHaveBeenCalled()
  })
})
