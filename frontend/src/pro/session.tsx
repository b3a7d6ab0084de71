import { createContext, useCallback, useContext, type ReactNode } from 'react'
import { useSessionState } from '../lib/session-state'
import { client, type PortalSession } from './api'

interface SessionState {
  session: PortalSession | null
  // True until the first GET /session has answered, so the sign-in form does not flash.
  checking: boolean
  notice: string | null
  signedIn: (answer: PortalSession) => void
  signOut: () => Promise<void>
  setTotp: (on: boolean) => void
}

const SessionContext = createContext<SessionState | null>(null)

export function SessionProvider({ children }: { children: ReactNode }) {
  const { session, setSession, checking, notice, signedIn, signOut } = useSessionState<PortalSession>(client)
  const setTotp = useCallback((on: boolean) => {
    setSession((current) => current && { ...current, account: { ...current.account, totpEnabled: on } })
  }, [setSession])
  return (
    <SessionContext.Provider value={{ session, checking, notice, signedIn, signOut, setTotp }}>
      {children}
    </SessionContext.Provider>
  )
}

export function useSession(): SessionState {
  const state = useContext(SessionContext)
  if (!state) throw new Error('useSession outside SessionProvider')
  return state
}

/** The signed-in provider's session; only pages behind the sign-in gate call it. */
export function useSignedIn(): PortalSession {
  const { session } = useSession()
  if (!session) throw new Error('useSignedIn without a session')
  return session
}
