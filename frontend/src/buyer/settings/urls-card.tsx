import { CircleCheck, CircleX } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, request } from '../api'
import type { BuyerSettings, UrlsSaved, UrlTest } from '../types'
import { Card, ErrorNotice, inputClass, SuccessNotice } from '../ui'
import { testLine } from './url-tests'

const URL_LIMIT = 2000

function TestResults({ tests }: { tests: UrlTest[] }) {
  return (
    <ul aria-label="Test results" className="space-y-2">
      {tests.map((test) => (
        <li key={test.kind} className={`flex items-start gap-2 rounded-lg px-3 py-2 text-sm ${test.ok ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'}`}>
          {test.ok ? <CircleCheck size={18} aria-hidden="true" className="mt-0.5 shrink-0" /> : <CircleX size={18} aria-hidden="true" className="mt-0.5 shrink-0" />}
          <span className="min-w-0 break-words">{testLine(test)}<span className="block break-all text-xs opacity-80">{test.url}</span></span>
        </li>
      ))}
    </ul>
  )
}

/** The ping and post URLs: a new one is tried first, with a test ping or post, and kept only when it answers. */
export function UrlsCard({ settings, onSaved }: { settings: BuyerSettings; onSaved: (settings: BuyerSettings) => void }) {
  const [pingUrl, setPingUrl] = useState(settings.pingUrl ?? '')
  const [postUrl, setPostUrl] = useState(settings.postUrl)
  const [tests, setTests] = useState<UrlTest[]>([])
  const [fields, setFields] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const pinged = settings.mode === 'ping-post'

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const body: Record<string, string> = {}
    if (pinged && pingUrl.trim() !== (settings.pingUrl ?? '')) body.pingUrl = pingUrl.trim()
    if (postUrl.trim() !== settings.postUrl) body.postUrl = postUrl.trim()
    setError(null)
    setDone(null)
    setFields({})
    setTests([])
    if (!Object.keys(body).length) {
      setDone('Nothing to change: these are the URLs in use.')
      return
    }
    setBusy(true)
    try {
      const answer = await request<UrlsSaved>('POST', '/settings/urls', body)
      setTests(answer.tests)
      onSaved(answer.settings)
      setDone('Every test passed: the new URLs are in use from now on.')
    } catch (failure) {
      const refusal = failure as BuyerError
      setTests(Array.isArray(refusal.body.tests) ? (refusal.body.tests as UrlTest[]) : [])
      setFields(refusal.fields)
      setError(`${refusal.message} Nothing was changed: your current URLs stay in use.`)
    } finally {
      setBusy(false)
    }
  }

  const input = (name: 'pingUrl' | 'postUrl', label: string, value: string, change: (value: string) => void, hint: string) => (
    <div>
      <label htmlFor={`url-${name}`} className="mb-1 block text-sm font-semibold text-slate-800">{label}</label>
      <input id={`url-${name}`} type="url" className={inputClass} maxLength={URL_LIMIT} value={value} placeholder="https://…"
        aria-invalid={fields[name] ? true : undefined} aria-describedby={`url-${name}-note`}
        onChange={(event) => change(event.currentTarget.value)} />
      <p id={`url-${name}-note`} className={`mt-1 text-sm ${fields[name] ? 'font-medium text-red-700' : 'text-slate-600'}`}>{fields[name] ?? hint}</p>
    </div>
  )

  return (
    <Card title="Ping and post URLs" id="urls-heading">
      <form aria-label="Ping and post URLs" noValidate onSubmit={(event) => void submit(event)} className="space-y-3">
        <p className="text-sm text-slate-700">
          A changed URL is tried first with a test {pinged ? 'ping or post' : 'post'} (marked as a test). It takes effect only when
          that test succeeds.
        </p>
        {pinged ? input('pingUrl', 'Ping URL', pingUrl, setPingUrl, 'Asked for a bid, without personal data.') : null}
        {input('postUrl', 'Post URL', postUrl, setPostUrl, 'The whole lead is posted here once you win it.')}
        <ErrorNotice message={error} />
        <SuccessNotice message={done} />
        {tests.length ? <TestResults tests={tests} /> : null}
        <button type="submit" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy}>
          {busy ? 'Testing…' : 'Test and save'}
        </button>
      </form>
    </Card>
  )
}
