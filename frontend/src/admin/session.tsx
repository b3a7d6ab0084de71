import { createContext, useContext, type ReactNode } from 'react'
import { useSessionState } from '../lib/session-state'
import { client } from './api'
import type { Operator, SessionAnswer } from './types'

interface SessionState {
  operator: Operator | null
  // True until the first GET /session has answered, so the sign-in form does not flash.
  checking: boolean
  loadError: string | null
  signedIn: (answer: SessionAnswer) => void
  signOut: () => Promise<void>
}

const SessionContext = createContext<SessionState | null>(null)

export function SessionProvider({ children }: { children: ReactNode }) {
  const { session, checking, notice, signedIn, signOut } = useSessionState<SessionAnswer>(client)
  return (
    <SessionContext.Provider value={{ operator: session?.operator ?? null, checking, loadError: notice, signedIn, signOut }}>
      {children}
    </SessionContext.Provider>
  )
}

export function useSession(): SessionState {
  const state = useContext(SessionContext)
  if (!state) throw new Error('useSession outside SessionProvider')
  return state
}

/** The signed-in operator; only pages behind the sign-in gate call it. */
export function useOperator(): Operator & { isAdmin: boolean } {
  const { operator } = useSession()
  if (!operator) throw new Error('useOperator without a session')
  return { ...operator, isAdmin: operator.role === 'admin' }
}
