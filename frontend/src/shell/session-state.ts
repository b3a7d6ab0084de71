import { useCallback, useEffect, useState } from 'react'
import type { SessionApiError, SessionClient } from './session-client'

export const SESSION_ENDED = 'Your session has ended. Sign in again to go on.'

/**
 * The signed-in session of one API (the console's or the portal's): read once on mount, its CSRF
 * token handed to the client, cleared on sign-out or when the server says the session ended.
 */
export function useSessionState<T extends { csrfToken: string }>(client: SessionClient) {
  const [session, setSession] = useState<T | null>(null)
  // True until the first GET /session has answered, so the sign-in form does not flash.
  const [checking, setChecking] = useState(true)
  const [notice, setNotice] = useState<string | null>(null)

  const signedIn = useCallback((answer: T) => {
    setNotice(null)
    client.setCsrfToken(answer.csrfToken)
    setSession(answer)
  }, [client])

  const signedOut = useCallback(() => {
    client.setCsrfToken('')
    setSession(null)
  }, [client])

  useEffect(() => {
    client.setSignedOutHandler(() => {
      signedOut()
      setNotice(SESSION_ENDED)
    })
    client.request<T>('GET', '/session')
      .then(signedIn)
      .catch((error: SessionApiError) => {
        if (error.status !== 401) setNotice(error.message)
      })
      .finally(() => setChecking(false))
  }, [client, signedIn, signedOut])

  const signOut = useCallback(async () => {
    try {
      await client.request('DELETE', '/session')
    } finally {
      signedOut()
    }
  }, [client, signedOut])

  return { session, setSession, checking, notice, signedIn, signOut }
}
