import { createSession } from '../shell/session'
import { client } from './api'
import type { Operator, SessionAnswer } from './types'

export const { SessionProvider, useSession, useSignedIn } = createSession<SessionAnswer>(client)

/** The signed-in operator; only pages behind the sign-in gate call it. */
export function useOperator(): Operator & { isAdmin: boolean } {
  const { operator } = useSignedIn()
  return { ...operator, isAdmin: operator.role === 'admin' }
}
