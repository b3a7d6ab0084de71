import { useState } from 'react'
import { takeLinkToken } from '../lib/link-token'
import { SignInLinkForm } from '../shell/sign-in-link'
import { client } from './api'
import { BASENAME } from './paths'
import { useSession } from './session'
import type { SessionAnswer } from './types'
import { buttonClass, ErrorNotice, Field, inputClass } from './ui'

/** Sign in with the one-time link e-mailed while failed attempts keep the account locked; once
 * signed in, the console's router sends this address on to the dashboard. */
export function SignInLinkPage() {
  const { signedIn } = useSession()
  const [token] = useState(takeLinkToken)
  return (
    <SignInLinkForm<SessionAnswer>
      client={client}
      token={token}
      signedIn={signedIn}
      frame={(form) => <main className="flex min-h-screen items-start justify-center px-4 py-16">{form}</main>}
      formClassName="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      heading={
        <>
          <h1 className="text-xl font-bold text-slate-900">Sign in to the ServiceMatch console</h1>
          <p className="text-sm text-slate-600">The link from your e-mail signs you in once, within 15 minutes.</p>
        </>
      }
      spentFooter={
        // A plain link: the sign-in form is what the console shows at any address while signed out.
        <a href={`${BASENAME}/`} className={buttonClass('primary', 'w-full')}>Back to sign in</a>
      }
      renderField={({ label, input }) => (
        <Field label={label}>
          <input className={inputClass} {...input} />
        </Field>
      )}
      ErrorNotice={ErrorNotice}
      buttonClassName={buttonClass('primary', 'w-full')}
    />
  )
}
