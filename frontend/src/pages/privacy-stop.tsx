import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Button } from '../components/button'
import { PageNotice } from '../components/page-notice'
import { previewStop, stopNow, type StopPreview } from '../features/privacy/privacy-api'
import { StaticPage } from './static-page'

type State =
  | { phase: 'loading' }
  | { phase: 'ready'; preview: StopPreview }
  | { phase: 'stopping'; preview: StopPreview }
  | { phase: 'done'; message: string }
  | { phase: 'refused'; message: string }

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long' })

/** The receipt's stop link lands here. Opening the page changes nothing; the button stops contact. */
export default function PrivacyStopPage() {
  const [params] = useSearchParams()
  const token = params.get('t') ?? ''
  const [state, setState] = useState<State>({ phase: 'loading' })

  useEffect(() => {
    let current = true
    previewStop(token).then((answer) => {
      if (!current) return
      setState(answer.ok ? { phase: 'ready', preview: answer.data } : { phase: 'refused', message: answer.failure.error })
    })
    return () => {
      current = false
    }
  }, [token])

  const stop = async (preview: StopPreview) => {
    setState({ phase: 'stopping', preview })
    const answer = await stopNow(token)
    setState(answer.ok ? { phase: 'done', message: answer.data.message } : { phase: 'refused', message: answer.failure.error })
  }

  return (
    <StaticPage title="Stop calls, texts and e-mails">
      <div className="max-w-2xl space-y-6" aria-live="polite">
        {state.phase === 'loading' ? <p className="text-slate-700">Checking your link…</p> : null}
        {state.phase === 'ready' || state.phase === 'stopping' ? (
          <>
            <p className="text-lg text-slate-800">Pressing the button withdraws your consent to be contacted about:</p>
            <ul className="list-disc space-y-1 pl-6 text-slate-800">
              {state.preview.requests.map((request, position) => (
                <li key={position}>
                  your {request.service} request of {day(request.submittedAt)}
                  {request.stopped ? ' (already stopped)' : ''}
                </li>
              ))}
            </ul>
            {state.preview.recipients.length ? (
              <>
                <p className="text-slate-800">These companies received your contact details, and will be told at once to stop contacting you:</p>
                <ul className="list-disc space-y-1 pl-6 text-slate-800">
                  {state.preview.recipients.map((name) => (
                    <li key={name}>{name}</li>
                  ))}
                </ul>
              </>
            ) : null}
            <Button onClick={() => stop(state.preview)} disabled={state.phase === 'stopping'}>
              {state.phase === 'stopping' ? 'Stopping…' : 'Stop all contact'}
            </Button>
          </>
        ) : null}
        {state.phase === 'done' ? <PageNotice tone="done">{state.message}</PageNotice> : null}
        {state.phase === 'refused' ? <PageNotice tone="refused">{state.message}</PageNotice> : null}
        <p className="text-sm text-slate-700">
          No link at hand? Use <Link to="/privacy/choices" className="text-brand-700 underline">Your Privacy Choices</Link>:
          we send a code to the e-mail address you gave us.
        </p>
      </div>
    </StaticPage>
  )
}
