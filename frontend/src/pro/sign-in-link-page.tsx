import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { SignInLinkForm } from '../shell/sign-in-link'
import { client, type PortalSession } from './api'
import { takeLinkToken } from './link-token'
import { PATHS } from './paths'
import { useSession } from './session'
import { AuthFrame, ErrorNotice } from './ui'

/** Sign in with the one-time link e-mailed while failed attempts keep the account locked. */
export default function SignInLinkPage() {
  const { signedIn } = useSession()
  const navigate = useNavigate()
  const [token] = useState(takeLinkToken)
  return (
    <SignInLinkForm<PortalSession>
      client={client}
      token={token}
      signedIn={(answer) => {
        signedIn(answer)
        navigate(PATHS.offers, { replace: true })
      }}
      frame={(form) => <AuthFrame title="Sign in with your link">{form}</AuthFrame>}
      formClassName="space-y-4"
      heading={<p className="text-sm text-slate-600">The link from your e-mail signs you in once, within 15 minutes.</p>}
      spentFooter={
        <>
          <p className="text-sm text-slate-700">Sign in with your password, or ask for a new link there.</p>
          <Link to={PATHS.home} className={buttonClasses('primary', 'w-full')}>Back to sign in</Link>
        </>
      }
      renderField={({ label, input }) => <LabelledInput id="link-code" label={label} {...input} />}
      ErrorNotice={ErrorNotice}
      buttonClassName={buttonClasses('primary', 'w-full')}
    />
  )
}
