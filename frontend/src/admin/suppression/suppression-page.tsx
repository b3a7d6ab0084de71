// Suppression lists (docs/quality.md): phones and e-mails no buyer is sold (a global list), or one
// buyer is not pinged with (its own list). Any operator reads them; admins import and remove.
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { request } from '../api'
import { useCardAction } from '../directory-parts'
import { useOperator } from '../session'
import type { Buyer } from '../types'
import { buttonClass, Card, ErrorNotice, formatTime, Loading, PageTitle, SuccessNotice } from '../ui'
import { useApi } from '../use-api'
import { ImportForm } from './import-form'
import { describeImport, type SuppressionList } from './import-summary'

type Removed = { id: number; name: string; entriesRemoved: number }

const HEADERS = ['List', 'Holds', 'Applies to', 'Entries', 'Created', '']

function ListRow({ list, isAdmin, onRemoved }: {
  list: SuppressionList
  isAdmin: boolean
  onRemoved: (message: string) => void
}) {
  const { run, error, busy } = useCardAction()
  const remove = () => {
    const entries = list.entryCount.toLocaleString('en-US')
    if (!window.confirm(`Remove ${list.name} and its ${entries} entries? Leads on it can be sold again.`)) return
    void run(() => request<Removed>('DELETE', `/suppression-lists/${list.id}`), (removed) => {
      onRemoved(`Removed ${removed.name} (${removed.entriesRemoved.toLocaleString('en-US')} entries).`)
      return [true, '']
    })
  }
  return (
    <tr className="border-t border-slate-100 align-top">
      <td className="px-3 py-2">
        <span className="font-medium break-all">{list.name}</span>
        {list.description && <p className="text-xs text-slate-500 break-words">{list.description}</p>}
        <ErrorNotice message={error} />
      </td>
      <td className="px-3 py-2">{list.kind === 'phone' ? 'Phones' : 'E-mails'}</td>
      <td className="px-3 py-2 break-words">{list.buyerId ? `${list.buyerName ?? list.buyerId} only` : 'Every buyer'}</td>
      <td className="px-3 py-2 text-right tabular-nums">{list.entryCount.toLocaleString('en-US')}</td>
      <td className="px-3 py-2">
        {formatTime(list.createdAt)}
        <p className="text-xs text-slate-500 break-all">by {list.createdBy}</p>
      </td>
      <td className="px-3 py-2 text-right">
        {isAdmin && (
          <button type="button" className={buttonClass('danger')} disabled={busy} onClick={remove}
            aria-label={`Remove the list ${list.name}`}>
            <Trash2 size={16} aria-hidden="true" /> Remove
          </button>
        )}
      </td>
    </tr>
  )
}

export default function SuppressionPage() {
  const { isAdmin } = useOperator()
  const { data, error, loading, reload } = useApi<{ items: SuppressionList[] }>('/suppression-lists')
  // Only an admin's form offers buyers to choose from.
  const { data: buyers } = useApi<{ items: Buyer[] }>(isAdmin ? '/buyers' : null)
  const [notice, setNotice] = useState<string | null>(null)
  const lists = data?.items ?? []
  const changed = (message: string) => {
    setNotice(message)
    reload()
  }
  return (
    <>
      <PageTitle>Suppression lists</PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-600">
        A lead whose phone or e-mail is on a list for every buyer is sold and offered to nobody (its quality
        reasons say <code>suppressed:</code> and the list). On a buyer&apos;s own list, only that buyer is not
        pinged. Values are stored as SHA-256 digests, never in clear. Digests from a buyer must hash the 10-digit
        phone (5125550142; with 1 or +1 first also matches) or the trimmed, lower-case e-mail.
      </p>
      <div className="space-y-2">
        <SuccessNotice message={notice} />
        <ErrorNotice message={error} />
      </div>
      {isAdmin && (
        <Card title="Import a file" className="my-4">
          <ImportForm lists={lists} onImported={(answer) => changed(describeImport(answer))}
            buyers={[...(buyers?.items ?? [])].sort((a, b) => a.name.localeCompare(b.name))} />
        </Card>
      )}
      {loading && !data && <Loading />}
      {data && lists.length === 0 && <p className="py-6 text-sm text-slate-500">No suppression lists yet.</p>}
      {lists.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm" style={{ minWidth: '48rem' }}>
            <caption className="sr-only">Suppression lists</caption>
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                {HEADERS.map((header, i) => (
                  <th key={i} scope="col" className={`px-3 py-2 font-medium ${i === 3 ? 'text-right' : ''}`}>{header}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lists.map((list) => <ListRow key={list.id} list={list} isAdmin={isAdmin} onRemoved={changed} />)}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
