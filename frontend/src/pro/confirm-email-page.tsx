import { useEffect, useRef, useState } from 'react'
import type { components } from '../lib/api-schema'
import { takeLinkToken } from '../lib/link-token'
import { postJson } from '../lib/post-json'
import { AuthFrame } from '../shell/portal-ui'
import { AUDIENCE, ErrorNotice, Loading, SuccessNotice } from './ui'

type Confirmed = components['schemas']['PartnerMessage']
type Answer = Awaited<ReturnType<typeof postJson<Confirmed>>>

/** An applicant follows the link from its e-mail: the application goes to our team. */
export default function ConfirmEmailPage() {
  const [token] = useState(takeLinkToken)
  const [message, setMessage] = useState('')
  const [error, setError] = useState(token ? '' : 'This link is not complete. Open it from the e-mail again.')
  // Sent once: the link is good once, however often the effect runs.
  const sent = useRef<Promise<Answer> | null>(null)

  useEffect(() => {
    if (!token) return
    let current = true
    sent.current ??= postJson<Confirmed>('/api/partner/applications/confirm', { token })
    sent.current.then((answer) => {
      if (!current) return
      if (answer.ok) setMessage(answer.data.message)
      else if (answer.failure.status === 410) setError(`${answer.failure.error} If you confirmed it already, there is nothing more to do.`)
      else setError(answer.failure.error)
    })
    return () => {
      current = false
    }
  }, [token])

  return (
    <AuthFrame audience={AUDIENCE} title="Your application">
      {message ? <SuccessNotice message={message} /> : error ? <ErrorNotice message={error} /> : <Loading label="Confirming…" />}
    </AuthFrame>
  )
}
