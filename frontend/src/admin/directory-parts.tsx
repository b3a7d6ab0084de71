// Parts the providers and buyers pages share: the active badge, edit/pause/resume, the editing form.
import { Pause, Pencil, Play } from 'lucide-react'
import { useState, type FormEvent, type ReactNode } from 'react'
import { ConsoleError } from './api'
import { buttonClass, ErrorNotice } from './ui'

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${active ? 'bg-green-100 text-green-800' : 'bg-slate-200 text-slate-700'}`}>
      {active ? 'Active' : 'Paused'}
    </span>
  )
}

/** Edit, and Pause or Resume, for an admin; `onPause`/`onResume` say what they did. */
export function EditPauseResume({ name, active, busy, onEdit, onPause, onResume }: {
  name: string
  active: boolean
  busy: boolean
  onEdit: () => void
  onPause: () => void
  onResume: () => void
}) {
  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={onEdit} aria-label={`Edit ${name}`}>
        <Pencil size={16} aria-hidden="true" /> Edit
      </button>
      {active ? (
        <button type="button" className={buttonClass('danger')} disabled={busy} aria-label={`Pause ${name}`} onClick={onPause}>
          <Pause size={16} aria-hidden="true" /> Pause
        </button>
      ) : (
        <button type="button" className={buttonClass('secondary')} disabled={busy} aria-label={`Resume ${name}`} onClick={onResume}>
          <Play size={16} aria-hidden="true" /> Resume
        </button>
      )}
    </>
  )
}

/** One call at a time from a card: what it says (or why it failed) is shown under the card. */
export function useCardAction() {
  const [notice, setNotice] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  async function run<T>(call: () => Promise<T>, describe: (answer: T) => [ok: boolean, text: string]) {
    setBusy(true)
    setError(null)
    setNotice(null)
    try {
      const [ok, text] = describe(await call())
      if (ok) setNotice(text)
      else setError(text)
    } catch (failure) {
      setError((failure as ConsoleError).message)
    } finally {
      setBusy(false)
    }
  }
  return { run, notice, error, busy }
}

/** A form's save: the server's message and per-field messages when it refuses. */
export function useSave(send: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState(false)
  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setFieldErrors({})
    try {
      await send()
    } catch (failure) {
      const answer = failure as ConsoleError
      setError(answer.message)
      setFieldErrors(answer.fields)
    } finally {
      setBusy(false)
    }
  }
  return { save, error, fieldErrors, busy }
}

/** The editing form's frame: its title, the server's message, the fields, Save and Cancel. */
export function EditorForm({ title, save, error, busy, saveLabel, onCancel, children }: {
  title: string
  save: (event: FormEvent) => void
  error: string | null
  busy: boolean
  saveLabel: string
  onCancel: () => void
  children: ReactNode
}) {
  return (
    <form onSubmit={save} aria-label={title}
      className="grid gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4 sm:grid-cols-2">
      <h2 className="text-base font-semibold sm:col-span-2">{title}</h2>
      <div className="sm:col-span-2"><ErrorNotice message={error} /></div>
      {children}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>{busy ? 'Saving…' : saveLabel}</button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
