// A page of cards filtered by one choice at a time (applications and credit requests by status,
// reviews by provider): the picker, the list's errors and loading, and the cards in a grid.
import { Fragment, useState, type FormEvent, type ReactNode } from 'react'
import { useApi } from './use-api'
import { buttonClass, ErrorNotice, Field, formatTime, inputClass, Loading, PageTitle, SuccessNotice } from './ui'

export function StatusListPage<T extends { id: string }>({ title, intro, filterLabel = 'Show', statuses, path, empty, card }: {
  title: string
  intro?: ReactNode
  filterLabel?: string
  // The picker's choices; the first is shown first.
  statuses: { value: string; label: string }[]
  // The list's path for a choice, e.g. `/credits?status=pending`.
  path: (status: string) => string
  empty: string
  card: (item: T) => ReactNode
}) {
  const [status, setStatus] = useState(statuses[0].value)
  const { data, error, loading } = useApi<{ items: T[] }>(path(status))
  return (
    <>
      <PageTitle>{title}</PageTitle>
      {intro}
      <div className="mb-4 max-w-xs">
        <Field label={filterLabel}>
          <select className={inputClass} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {statuses.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
          </select>
        </Field>
      </div>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">{empty}</p>}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {data?.items.map((item) => <Fragment key={item.id}>{card(item)}</Fragment>)}
      </div>
    </>
  )
}

/** A decided card's rows of a definition list: when and by whom, and the words that came with it. */
export function DecisionRows({ label = 'Decided', decidedAt, decidedBy, noteLabel, note }: {
  label?: string
  decidedAt: string | null
  decidedBy: string | null
  noteLabel?: string
  note?: string | null
}) {
  return (
    <>
      {decidedAt && (<>
        <dt className="text-slate-500">{label}</dt><dd className="min-w-0 break-words">{formatTime(decidedAt)} by {decidedBy}</dd>
      </>)}
      {note && (<>
        <dt className="text-slate-500">{noteLabel}</dt><dd className="min-w-0 whitespace-pre-line break-words">{note}</dd>
      </>)}
    </>
  )
}

/** What a card's last action said, or why it failed. */
export function CardNotices({ error, notice }: { error: string | null; notice: string | null }) {
  return (
    <div className="mt-3 space-y-2">
      <ErrorNotice message={error} />
      <SuccessNotice message={notice} />
    </div>
  )
}

/** A decision's words (a reason, a note) and its button, with Cancel: the form under a card. */
export function NoteForm({ name, label, required, maxLength = 2000, value, onChange, submitLabel, variant, busy, onSubmit,
  onCancel }: {
  name: string
  label: string
  required: boolean
  // The server's limit for these words.
  maxLength?: number
  value: string
  onChange: (value: string) => void
  submitLabel: string
  variant: 'primary' | 'danger'
  busy: boolean
  onSubmit: () => void
  onCancel: () => void
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <form onSubmit={submit} className="mt-3 space-y-2" aria-label={name}>
      <Field label={label}>
        <textarea className={inputClass} rows={3} required={required} maxLength={maxLength} value={value}
          onChange={(e) => onChange(e.currentTarget.value)} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass(variant)} disabled={busy}>{submitLabel}</button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
