// The signed-in session of one app, in a React context: each app makes its own from its API client.
import { createContext, useContext, type ReactNode } from 'react'
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
