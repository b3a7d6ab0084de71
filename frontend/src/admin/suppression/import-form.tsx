// An admin's import of a file into a suppression list (made when the name is new). The file is
// read here and sent as text; bigger files go through `servicematch suppression import`.
import { Upload } from 'lucide-react'
import { useState } from 'react'
import type { components } from '../../lib/api-schema'
import { request } from '../api'
import { useSave } from '../directory-parts'
import { buttonClass, ErrorNotice, Field, inputClass } from '../ui'
import type { Imported, SuppressionList } from './import-summary'

type UploadBody = components['schemas']['SuppressionUpload']
type BuyerChoice = { id: string; name: string }

// The server's limit on a file's text (backend/servicematch/console/suppression.py, MAX_UPLOAD_CHARS).
export const MAX_FILE_CHARS = 16_000_000

export function ImportForm({ lists, buyers, onImported }: {
  lists: SuppressionList[]
  buyers: BuyerChoice[]
  onImported: (answer: Imported) => void
}) {
  const [name, setName] = useState('')
  const [hashed, setHashed] = useState<'' | 'md5' | 'sha256'>('')
  const [kind, setKind] = useState<'' | 'phone' | 'email'>('')
  const [buyerId, setBuyerId] = useState('')
  const [description, setDescription] = useState('')
  const [replace, setReplace] = useState(false)
  const [file, setFile] = useState<File | null>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const existing = lists.find((list) => list.name === name.trim().toLowerCase())

  const { save, error, fieldErrors, busy } = useSave(async () => {
    const content = await file!.text()
    const body: UploadBody = { name: name.trim(), content, replace }
    if (hashed) body.hashed = hashed
    if (kind) body.kind = kind
    if (buyerId) body.buyerId = buyerId
    if (description.trim()) body.description = description.trim()
    const answer = await request<Imported>('POST', '/suppression-lists/import', body)
    setFile(null)
    setReplace(false)
    onImported(answer)
  })

  function choose(chosen: File | null) {
    setFileError(null)
    setFile(chosen)
    if (chosen && chosen.size > MAX_FILE_CHARS) {
      setFileError(`This file is ${(chosen.size / 1e6).toFixed(1)} MB; the console takes up to 16 MB. `
        + 'Import it with `servicematch suppression import` instead.')
      setFile(null)
    }
  }

  return (
    <form aria-label="Import a suppression list" onSubmit={save} className="grid gap-3 sm:grid-cols-2">
      <Field label="List" hint={existing ? `Adds to ${existing.name} (${existing.kind === 'phone' ? 'phones' : 'e-mails'})`
        : 'A new name makes a new list: lower-case letters, digits, dots, dashes'} error={fieldErrors.name}>
        <input className={inputClass} required maxLength={64} list="suppression-list-names" autoComplete="off"
          value={name} onChange={(e) => setName(e.currentTarget.value)} />
      </Field>
      <datalist id="suppression-list-names">
        {lists.map((list) => <option key={list.id} value={list.name} />)}
      </datalist>
      <Field label="File holds" error={fieldErrors.hashed}>
        <select className={inputClass} value={hashed} onChange={(e) => setHashed(e.currentTarget.value as typeof hashed)}>
          <option value="">Plain phones or e-mails</option>
          <option value="sha256">SHA-256 digests</option>
          <option value="md5">MD5 digests</option>
        </select>
      </Field>
      {!existing && (
        <Field label="Kind of entries" error={fieldErrors.kind}
          hint={hashed ? 'Needed for digests: they do not say what they hash' : 'Read from the first line when left'}>
          <select className={inputClass} value={kind} required={hashed !== ''}
            onChange={(e) => setKind(e.currentTarget.value as typeof kind)}>
            <option value="">{hashed ? 'Choose…' : 'From the file'}</option>
            <option value="phone">Phones</option>
            <option value="email">E-mails</option>
          </select>
        </Field>
      )}
      {!existing && (
        <Field label="Applies to" error={fieldErrors.buyerId}
          hint="A buyer's own list (e.g. its customers) only stops that buyer being pinged">
          <select className={inputClass} value={buyerId} onChange={(e) => setBuyerId(e.currentTarget.value)}>
            <option value="">Every buyer (a global list)</option>
            {buyers.map((buyer) => <option key={buyer.id} value={buyer.id}>{buyer.name} only</option>)}
          </select>
        </Field>
      )}
      <Field label="What the list is for (optional)" error={fieldErrors.description}>
        <input className={inputClass} maxLength={2000} value={description}
          onChange={(e) => setDescription(e.currentTarget.value)} />
      </Field>
      <Field label="File" hint="One value per line, up to 16 MB (.txt or .csv)" error={fileError ?? fieldErrors.content}>
        <input className={inputClass} type="file" accept=".txt,.csv,text/plain,text/csv"
          onChange={(e) => choose(e.currentTarget.files?.[0] ?? null)} />
      </Field>
      <label className="flex min-h-11 items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" className="size-5" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} />
        Replace the list&apos;s entries: the file becomes the whole list
      </label>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy || !file}>
          <Upload size={16} aria-hidden="true" /> {busy ? 'Importing…' : 'Import'}
        </button>
        <ErrorNotice message={error} />
      </div>
    </form>
  )
}
