import { Link } from 'react-router'
import { buttonClasses } from '../components/button-classes'
import { LabelledInput } from '../components/labelled-input'
import { SignInForm } from '../shell/sign-in'
import { client, type PortalSession } from './api'
import { PATHS } from './paths'
import { useSession } from './session'
import { AuthFrame, ErrorNotice, SuccessNotice } from './ui'

const INPUT_IDS = { email: 'signin-email', password: 'signin-password', totp: 'signin-code' } as const

export function SignIn() {
  const { signedIn, notice } = useSession()
  return (
    <SignInForm<PortalSession>
      client={client}
      signedIn={signedIn}
      notice={notice}
      frame={(form) => <AuthFrame title="Sign in">{form}</AuthFrame>}
      formClassName="space-y-4"
      renderField={({ name, label, input }) => (
        <LabelledInput id={INPUT_IDS[name]} label={label} {...input} {...(name === 'email' ? { inputMode: 'email' } : {})} />
      )}
      ErrorNotice={ErrorNotice}
      SuccessNotice={SuccessNotice}
      buttonClassName={buttonClasses('primary', 'w-full')}
      linkButtonClassName={buttonClasses('secondary', 'w-full')}
      footer={
        <p className="text-center text-sm">
          <Link to={PATHS.forgot} className="font-semibold text-brand-700 underline">Forgot your password?</Link>
        </p>
      }
    />
  )
}
