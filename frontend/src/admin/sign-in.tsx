import { SignInForm } from '../shell/sign-in'
import { client } from './api'
import { useSession } from './session'
import type { SessionAnswer } from './types'
import { buttonClass, ErrorNotice, Field, inputClass, SuccessNotice } from './ui'

export function SignIn() {
  const { signedIn, notice } = useSession()
  return (
    <SignInForm<SessionAnswer>
      client={client}
      signedIn={signedIn}
      notice={notice}
      totpPrompt="Enter the 6-digit code from your authenticator app."
      frame={(form) => <main className="flex min-h-screen items-start justify-center px-4 py-16">{form}</main>}
      formClassName="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      heading={<h1 className="text-xl font-bold text-slate-900">Sign in to the ServiceMatch console</h1>}
      renderField={({ label, input }) => (
        <Field label={label}>
          <input className={inputClass} {...input} />
        </Field>
      )}
      ErrorNotice={ErrorNotice}
      SuccessNotice={SuccessNotice}
      buttonClassName={buttonClass('primary', 'w-full')}
      linkButtonClassName={buttonClass('secondary', 'w-full')}
    />
  )
}
