import { createPortalSession } from '../shell/session'
import { client } from './api'
import type { BuyerPortalSession } from './types'

export const { SessionProvider, useSession, useSignedIn } = createPortalSession<BuyerPortalSession>(client)
