import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SessionApiError, type SessionClient } from './session-client'
import { SignInForm } from './sign-in'

const LOCKED = 'Too many failed sign-in attempts. Try again in 15 minutes, or have a sign-in link e-mailed to you.'
const SENT = 'If ana@coolair.example is the address of an account locked by failed sign-in attempts, we sent it a sign-in link.'

afterEach(cleanup)

function Notice({ message }: { message: string | null | undefined }) {
  return message ? <p role="status">{message}</p> : null
}

function open(answer: (path: string, body: unknown) => Promise<unknown>) {
  const request = vi.fn((_method: string, path: string, body?: unknown) => answer(path, body))
  const client: SessionClient = { request: request as SessionClient['request'], setCsrfToken: vi.fn(), setSignedOutHandler: vi.fn() }
  const signedIn = vi.fn()
  render(
    <SignInForm
      client={client}
      signedIn={signedIn}
      notice={null}
      frame={(form) => form}
      formClassName=""
      renderField={({ name, label, input }) => <label key={name}>{label}<input {...input} /></label>}
      ErrorNotice={Notice}
      SuccessNotice={Notice}
      buttonClassName=""
      linkButtonClassName=""
    />,
  )
  return { request, signedIn }
}

async function signIn() {
  const user = userEvent.setup()
  await user.type(screen.getByLabelText('E-mail'), 'ana@coolair.example')
  await user.type(screen.getByLabelText('Password'), 'correct horse battery staple')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
  return user
}

describe('the sign-in form', () => {
  it('offers, while sign-in is throttled, to e-mail a sign-in link, and says it was sent', async () => {
    const { request } = open(async (path) => {
      if (path === '/session') throw new SessionApiError(429, LOCKED)
      return { message: SENT }
    })
    const user = await signIn()
    expect(screen.getByText(LOCKED)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }))
    expect(request).toHaveBeenLastCalledWith('POST', '/session/link', { email: 'ana@coolair.example' })
    expect(screen.getByText(SENT)).toBeTruthy()
    expect(screen.queryByText(LOCKED)).toBeNull()
    expect(screen.queryByRole('button', { name: 'E-mail me a sign-in link' })).toBeNull()
  })

  it('offers no link for a wrong password', async () => {
    open(async () => {
      throw new SessionApiError(401, 'The e-mail address or password is not right.')
    })
    await signIn()
    expect(screen.getByText('The e-mail address or password is not right.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'E-mail me a sign-in link' })).toBeNull()
  })

  it('shows why a link could not be asked for', async () => {
    open(async (path) => {
      throw new SessionApiError(429, path === '/session' ? LOCKED : 'Too many requests from your network.')
    })
    const user = await signIn()
    await user.click(screen.getByRole('button', { name: 'E-mail me a sign-in link' }))
    expect(screen.getByText('Too many requests from your network.')).toBeTruthy()
  })
})
