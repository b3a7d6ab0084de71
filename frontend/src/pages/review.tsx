import { Star } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { Button } from '../components/button'
import { PageNotice } from '../components/page-notice'
import { lookUpReview, MAX_REVIEW_TEXT, sendReview, type ReviewLinkInfo } from '../features/reviews/review-api'
import { takeLinkToken } from '../lib/link-token'
import { StaticPage } from './static-page'

type State =
  | { phase: 'loading' }
  | { phase: 'ready'; info: ReviewLinkInfo }
  | { phase: 'thanks'; message: string }
  | { phase: 'refused'; message: string }

const STAR_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent']
const NO_LINK = 'This page needs the link from our e-mail. Open the whole link from the e-mail we sent you.'

/** Five stars as one radio group: arrow keys move between them, each is a 48 px target for a thumb. */
function StarPicker({ value, onChange, error }: { value: number; onChange: (stars: number) => void; error?: string }) {
  return (
    <fieldset aria-describedby={error ? 'stars-error' : undefined}>
      <legend className="text-lg font-semibold text-slate-900">Your rating</legend>
      <div className="mt-2 flex gap-1">
        {[1, 2, 3, 4, 5].map((stars) => (
          <label key={stars} className="cursor-pointer rounded-lg p-1 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700">
            <input
              type="radio"
              name="stars"
              value={stars}
              checked={value === stars}
              onChange={() => onChange(stars)}
              className="sr-only"
              aria-label={`${stars} star${stars > 1 ? 's' : ''}: ${STAR_WORDS[stars]}`}
            />
            <Star
              aria-hidden="true"
              className={`size-10 ${stars <= value ? 'fill-amber-400 text-amber-500' : 'text-slate-400'}`}
              strokeWidth={1.5}
            />
          </label>
        ))}
      </div>
      <p className="mt-1 min-h-6 text-slate-700" aria-live="polite">
        {value ? `${value} of 5: ${STAR_WORDS[value]}` : 'Choose from 1 to 5 stars.'}
      </p>
      {error ? (
        <p id="stars-error" className="font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/** Where a review e-mail's link lands: /review#<token>. The token leaves the address bar at once. */
export default function ReviewPage() {
  const [token] = useState(() => (typeof window === 'undefined' ? '' : takeLinkToken()))
  const [state, setState] = useState<State>(token ? { phase: 'loading' } : { phase: 'refused', message: NO_LINK })
  const [stars, setStars] = useState(0)
  const [text, setText] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [sending, setSending] = useState(false)

  useEffect(() => {
    let current = true
    if (!token) return
    lookUpReview(token).then((answer) => {
      if (!current) return
      if (!answer.ok) setState({ phase: 'refused', message: answer.failure.error })
      else if (answer.data.alreadyRated) setState({ phase: 'thanks', message: 'You have already rated this provider for this request. Thank you!' })
      else setState({ phase: 'ready', info: answer.data })
    })
    return () => {
      current = false
    }
  }, [token])

  const send = async (event: FormEvent) => {
    event.preventDefault()
    if (!stars) {
      setErrors({ stars: 'Choose from 1 to 5 stars.' })
      return
    }
    setSending(true)
    const answer = await sendReview(token, stars, text)
    setSending(false)
    if (answer.ok) setState({ phase: 'thanks', message: answer.data.message })
    else if (answer.failure.status === 422) setErrors(answer.failure.fields)
    else setState({ phase: 'refused', message: answer.failure.error })
  }

  return (
    <StaticPage title="Rate your provider">
      <div className="max-w-xl space-y-6" aria-live="polite">
        {state.phase === 'loading' ? <p className="text-slate-700">Checking your link…</p> : null}
        {state.phase === 'ready' ? (
          <form onSubmit={send} noValidate className="space-y-6">
            <p className="text-lg text-slate-800">
              How did <strong>{state.info.providerName}</strong> do with your <strong>{state.info.serviceName}</strong> request?
            </p>
            <StarPicker value={stars} onChange={(value) => (setStars(value), setErrors({}))} error={errors.stars} />
            <div>
              <label htmlFor="review-text" className="block text-lg font-semibold text-slate-900">
                A few words <span className="font-normal text-slate-700">(if you like)</span>
              </label>
              <textarea
                id="review-text"
                value={text}
                onChange={(event) => setText(event.target.value)}
                maxLength={MAX_REVIEW_TEXT}
                rows={4}
                aria-describedby="review-text-help"
                aria-invalid={errors.text ? true : undefined}
                className="mt-2 w-full rounded-lg border border-slate-400 p-3 text-base text-slate-900"
              />
              <p id="review-text-help" className="text-sm text-slate-700">
                {errors.text ?? `${text.length} of ${MAX_REVIEW_TEXT} characters. The provider sees your stars, words and city, never your name.`}
              </p>
            </div>
            <Button type="submit" disabled={sending}>
              {sending ? 'Sending…' : 'Send'}
            </Button>
          </form>
        ) : null}
        {state.phase === 'thanks' ? <PageNotice tone="done">{state.message}</PageNotice> : null}
        {state.phase === 'refused' ? <PageNotice tone="refused">{state.message}</PageNotice> : null}
      </div>
    </StaticPage>
  )
}
