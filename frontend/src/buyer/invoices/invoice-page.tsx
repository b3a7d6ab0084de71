import { useParams } from 'react-router'
import { OwnInvoice } from '../../shell/invoice-parts'
import { API_PREFIX, request } from '../api'
import { PATHS } from '../paths'

/** One invoice: its totals, what is due and by when, every line, and its PDF. */
export default function InvoicePage() {
  const { invoiceId = '' } = useParams()
  const path = `/invoices/${encodeURIComponent(invoiceId)}`
  // Another invoice's page starts afresh, with nothing of the one before.
  return <OwnInvoice key={invoiceId} request={request} path={path} pdfHref={`${API_PREFIX}${path}.pdf`}
    backTo={PATHS.invoices} backLabel="All invoices" />
}
