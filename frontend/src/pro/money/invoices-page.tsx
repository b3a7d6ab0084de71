import { ArrowLeft } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useParams } from 'react-router'
import { InvoiceView, type InvoiceDetail } from '../../shell/invoice-parts'
import { PortalError, providerPath, request } from '../api'
import { PATHS } from '../paths'
import { useSignedIn } from '../session'
import { ErrorNotice, Loading } from '../ui'

const BackLink = () => (
  <Link to={PATHS.money} className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 underline">
    <ArrowLeft size={16} aria-hidden="true" /> Money
  </Link>
)

/** One of the provider's invoices: its totals, what is due and by when, every line, and its PDF. */
export default function InvoicePage() {
  const { invoiceId = '' } = useParams()
  const { provider } = useSignedIn()
  // Another invoice's page starts afresh, with nothing of the one before.
  return <InvoiceOf key={invoiceId} path={providerPath(provider.id, `/invoices/${encodeURIComponent(invoiceId)}`)} />
}

function InvoiceOf({ path }: { path: string }) {
  const [invoice, setInvoice] = useState<InvoiceDetail | null>(null)
  const [missing, setMissing] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    request<InvoiceDetail>('GET', path).then(setInvoice, (refusal: PortalError) => {
      // Another provider's invoice, or none: the same answer, with nothing in it.
      if (refusal.status === 404) setMissing(true)
      else setError(refusal.message)
    })
  }, [path])

  if (missing) {
    return (
      <div className="space-y-4">
        <BackLink />
        <h1 className="text-2xl font-bold text-slate-900">Invoice not found</h1>
        <p className="text-base text-slate-700">There is no invoice of yours at this address.</p>
      </div>
    )
  }
  return (
    <div className="space-y-4">
      <BackLink />
      <ErrorNotice message={error} />
      {invoice ? <InvoiceView invoice={invoice} pdfHref={`/api/pro${path}.pdf`} /> : error ? null : <Loading label="Loading the invoice…" />}
    </div>
  )
}
