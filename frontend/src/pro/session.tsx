import { useCallback } from 'react'
import { createSession } from '../shell/session'
import { client, type PortalSession } from './api'

const session = createSession<PortalSession>(client)

export const { SessionProvider, useSignedIn } = session

/** The portal's session, and a way to record that two-step sign-in was turned on or off. */
export function useSession() {
  const state = session.useSession()
  const { setSession } = state
  const setTotp = useCallback((on: boolean) => {
    setSession((current) => current && { ...current, account: { ...current.account, totpEnabled: on } })
  }, [setSession])
  return { ...state, setTotp }
}
