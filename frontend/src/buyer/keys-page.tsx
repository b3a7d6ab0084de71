import { TriangleAlert } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { buttonClasses } from '../components/button-classes'
import { BuyerError, request, useApi } from './api'
import { formatDateTime } from './format'
import type { ApiKey, Items, NewApiKey } from './types'
import { Card, CopyButton, EmptyNote, ErrorNotice, inputClass, Loading, PageTitle } from './ui'

const NAME_LIMIT = 100
const small = 'min-h-11 px-4 py-2 text-sm'

/** Keys for the buyer's own systems: named, shown once, revocable; each says when it was last used. */
export default function KeysPage() {
  const keys = useApi<Items<ApiKey>>('/keys')
  const [made, setMade] = useState<NewApiKey | null>(null)
  return (
    <div className="space-y-4">
      <PageTitle>API keys</PageTitle>
      <p className="text-sm text-slate-700">
        Your systems read your leads and settings, return leads and send feedback with a key, sent as
        <code className="mx-1 rounded bg-slate-100 px-1 font-mono">Authorization: Bearer smk_…</code>
        to <code className="rounded bg-slate-100 px-1 font-mono">/api/buyer/v1/…</code>.
      </p>
      {made ? <ShownOnce made={made} onDone={() => setMade(null)} /> : null}
      <NewKeyForm onMade={(answer) => {
        setMade(answer)
        keys.reload()
      }} />
      <Card title="Your keys" id="keys-heading">
        <ErrorNotice message={keys.error} />
        {keys.data ? (keys.data.items.length ? <KeyList keys={keys.data.items} onRevoked={keys.reload} /> : (
          <EmptyNote>No keys yet.</EmptyNote>
        )) : keys.loading ? <Loading /> : null}
      </Card>
    </div>
  )
}

function NewKeyForm({ onMade }: { onMade: (made: NewApiKey) => void }) {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      onMade(await request<NewApiKey>('POST', '/keys', { name: name.trim() }))
      setName('')
    } catch (failure) {
      const refusal = failure as BuyerError
      setError(refusal.fields.name ?? refusal.message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card title="Make a key" id="new-key-heading">
      <form aria-label="Make a key" onSubmit={(event) => void submit(event)} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <label htmlFor="key-name" className="mb-1 block text-sm font-semibold text-slate-800">Name</label>
          <input id="key-name" className={inputClass} required maxLength={NAME_LIMIT} value={name} placeholder="CRM import"
            aria-describedby="key-name-hint" onChange={(event) => setName(event.currentTarget.value)} />
          <p id="key-name-hint" className="mt-1 text-sm text-slate-600">Which system uses it, so you know which to revoke.</p>
        </div>
        <button type="submit" className={buttonClasses('primary', 'w-full sm:mb-6 sm:w-auto')} disabled={busy || !name.trim()}>Make key</button>
      </form>
      <div className="mt-2"><ErrorNotice message={error} /></div>
    </Card>
  )
}

/** The new key, shown this once: the server keeps only its hash. */
function ShownOnce({ made, onDone }: { made: NewApiKey; onDone: () => void }) {
  return (
    <section aria-labelledby="made-key-heading" className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="made-key-heading" className="flex items-center gap-2 text-lg font-bold text-amber-900">
        <TriangleAlert size={20} aria-hidden="true" /> Your new key “{made.key.name}”
      </h2>
      <p className="text-sm text-amber-900">Copy it now: it is shown only this once. Anyone with it reads your leads, so keep it secret.</p>
      <p aria-label="The new key" className="break-all rounded-lg bg-white px-3 py-2 font-mono text-sm">{made.secret}</p>
      <div className="flex flex-wrap items-center gap-3">
        <CopyButton text={made.secret} label="Copy key" className={buttonClasses('primary', small)} />
        <button type="button" className={buttonClasses('secondary', small)} onClick={onDone}>I have saved it</button>
      </div>
    </section>
  )
}

function KeyList({ keys, onRevoked }: { keys: ApiKey[]; onRevoked: () => void }) {
  return (
    <ul className="divide-y divide-slate-200">
      {keys.map((key) => <KeyRow key={key.id} apiKey={key} onRevoked={onRevoked} />)}
    </ul>
  )
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const revoke = async () => {
    setBusy(true)
    setError(null)
    try {
      await request('DELETE', `/keys/${encodeURIComponent(apiKey.id)}`)
      setConfirming(false)
      onRevoked()
    } catch (failure) {
      setError((failure as BuyerError).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 text-sm">
        <p className="text-base font-semibold text-slate-900">
          {apiKey.name} <code className="ml-1 font-mono text-sm font-normal text-slate-600">{apiKey.prefix}…</code>
          {apiKey.revokedAt ? <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800">Revoked</span> : null}
        </p>
        <p className="text-slate-600">Made {formatDateTime(apiKey.createdAt)} by {apiKey.createdBy}</p>
        <p className="text-slate-600">
          {apiKey.revokedAt ? `Revoked ${formatDateTime(apiKey.revokedAt)}`
            : apiKey.lastUsedAt ? `Last used ${formatDateTime(apiKey.lastUsedAt)}` : 'Never used'}
        </p>
        <ErrorNotice message={error} />
      </div>
      {apiKey.revokedAt ? null : confirming ? (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-slate-800">Systems using it stop at once.</span>
          <button type="button" className={buttonClasses('primary', small)} disabled={busy} onClick={() => void revoke()}>
            Revoke {apiKey.name} now
          </button>
          <button type="button" className={buttonClasses('secondary', small)} onClick={() => setConfirming(false)}>Keep it</button>
        </div>
      ) : (
        <button type="button" className={buttonClasses('secondary', small)} onClick={() => setConfirming(true)}>Revoke {apiKey.name}</button>
      )}
    </li>
  )
}
