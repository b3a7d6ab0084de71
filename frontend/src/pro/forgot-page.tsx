import { ForgotPasswordPage } from '../shell/portal-sign-in'
import { client } from './api'
import { PATHS } from './paths'
import { AUDIENCE } from './ui'

/** Ask for a link to choose a new password (POST /api/pro/password/forgot). */
export default function ForgotPage() {
  return <ForgotPasswordPage client={client} audience={AUDIENCE} homePath={PATHS.home} />
}
