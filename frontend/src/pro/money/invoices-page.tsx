import { useParams } from 'react-router'
import { OwnInvoice } from '../../shell/invoice-parts'
import { providerPath, request } from '../api'
import { PATHS } from '../paths'
import { useSignedIn } from '../session'

/** One of the provider's invoices: its totals, what is due and by when, every line, and its PDF. */
export default function InvoicePage() {
  const { invoiceId = '' } = useParams()
  const { provider } = useSignedIn()
  const path = providerPath(provider.id, `/invoices/${encodeURIComponent(invoiceId)}`)
  // Another invoice's page starts afresh, with nothing of the one before.
  return <OwnInvoice key={invoiceId} request={request} path={path} pdfHref={`/api/pro${path}.pdf`}
    backTo={PATHS.money} backLabel="Money" />
}
