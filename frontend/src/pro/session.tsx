import { createPortalSession } from '../shell/session'
import { client, type PortalSession } from './api'

export const { SessionProvider, useSession, useSignedIn } = createPortalSession<PortalSession>(client)
