import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react'
import { ConsoleError, request, setCsrfToken, setSignedOutHandler } from './api'
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
  const [operator, setOperator] = useState<Operator | null>(null)
  const [checking, setChecking] = useState(true)
  const [loadError, setLoadError] = useState<string | null>(null)

  const signedIn = useCallback((answer: SessionAnswer) => {
    setLoadError(null)
    setCsrfToken(answer.csrfToken)
    setOperator(answer.operator)
  }, [])

  const signedOut = useCallback(() => {
    setCsrfToken('')
    setOperator(null)
  }, [])

  useEffect(() => {
    setSignedOutHandler(() => {
      signedOut()
      setLoadError('Your session has ended. Sign in again to go on.')
    })
    request<SessionAnswer>('GET', '/session')
      .then(signedIn)
      .catch((error: ConsoleError) => {
        if (error.status !== 401) setLoadError(error.message)
      })
      .finally(() => setChecking(false))
  }, [signedIn, signedOut])

  const signOut = useCallback(async () => {
    try {
      await request('DELETE', '/session')
    } finally {
      signedOut()
    }
  }, [signedOut])

  return (
    <SessionContext.Provider value={{ operator, checking, loadError, signedIn, signOut }}>
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
