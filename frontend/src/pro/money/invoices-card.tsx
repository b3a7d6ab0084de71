import { useCallback, useEffect, useState } from 'react'
import { InvoiceRows, type InvoiceSummary } from '../../shell/invoice-parts'
import { PortalError, providerPath, request } from '../api'
import { invoicePath } from '../paths'
import { Card, ErrorNotice } from '../ui'

interface InvoicePage {
  items: InvoiceSummary[]
  nextCursor: string | null
}

/** The provider's monthly invoices on its money page, newest first: each opens with its lines and PDF. */
export function InvoicesCard({ providerId }: { providerId: string }) {
  const [items, setItems] = useState<InvoiceSummary[] | null>(null)
  const [nextCursor, setNextCursor] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  // The first page, or the next one after `cursor`, added below what is shown.
  const load = useCallback((cursor: string | null) => {
    const page = cursor ? `/invoices?cursor=${encodeURIComponent(cursor)}` : '/invoices'
    return request<InvoicePage>('GET', providerPath(providerId, page)).then((answer) => {
      setItems((shown) => (cursor && shown ? [...shown, ...answer.items] : answer.items))
      setNextCursor(answer.nextCursor)
    }, (failure: PortalError) => setError(failure.message))
  }, [providerId])

  useEffect(() => {
    void load(null)
  }, [load])

  return (
    <Card title="Invoices" id="invoices-heading">
      <ErrorNotice message={error} />
      {items === null ? null : items.length ? (
        <InvoiceRows items={items} linkTo={invoicePath} />
      ) : (
        <p className="text-sm text-slate-600">No invoices yet. On the 1st of each month the month before is invoiced and e-mailed to you.</p>
      )}
      {nextCursor ? (
        <button type="button" onClick={() => void load(nextCursor)}
          className="mt-2 inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
          Older invoices
        </button>
      ) : null}
    </Card>
  )
}
