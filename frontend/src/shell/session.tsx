// The signed-in session of one app, in a React context: each app makes its own from its API client.
import { createContext, useCallback, useContext, type ReactNode } from 'react'
import type { SessionClient } from './session-client'
import { useSessionState } from './session-state'

export type SessionState<S extends { csrfToken: string }> = ReturnType<typeof useSessionState<S>>

/** The provider and hooks of one app's session; `S` is what its GET /session answers. */
export function createSession<S extends { csrfToken: string }>(client: SessionClient) {
  const SessionContext = createContext<SessionState<S> | null>(null)

  function SessionProvider({ children }: { children: ReactNode }) {
    const state = useSessionState<S>(client)
    return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>
  }

  function useSession(): SessionState<S> {
    const state = useContext(SessionContext)
    if (!state) throw new Error('useSession outside SessionProvider')
    return state
  }

  /** The signed-in session; only pages behind the sign-in gate call it. */
  function useSignedIn(): S {
    const { session } = useSession()
    if (!session) throw new Error('useSignedIn without a session')
    return session
  }

  return { SessionProvider, useSession, useSignedIn }
}

/** What a portal's GET /session answers at least: the person signed in, with two-step sign-in on or off. */
export interface PortalSessionAnswer {
  csrfToken: string
  account: { totpEnabled: boolean }
}

/** A portal's session (the provider's, the buyer's), and a way to record that two-step sign-in was
 * turned on or off without asking the server for the session again. */
export function createPortalSession<S extends PortalSessionAnswer>(client: SessionClient) {
  const session = createSession<S>(client)

  function useSession() {
    const state = session.useSession()
    const { setSession } = state
    const setTotp = useCallback((on: boolean) => {
      setSession((current) => current && { ...current, account: { ...current.account, totpEnabled: on } })
    }, [setSession])
    return { ...state, setTotp }
  }

  return { SessionProvider: session.SessionProvider, useSession, useSignedIn: session.useSignedIn }
}
