import { buttonClasses } from '../../components/button-classes'
import { InvoiceRows, type InvoiceSummary } from '../../shell/invoice-parts'
import { usePagedList } from '../api'
import { invoicePagePath } from '../paths'
import { Card, EmptyNote, ErrorNotice, Loading, PageTitle } from '../ui'

/** The buyer's monthly invoices, newest first: each opens with its lines and its PDF. */
export default function InvoicesPage() {
  const invoices = usePagedList<InvoiceSummary>('/invoices')
  return (
    <div className="space-y-4">
      <PageTitle>Invoices</PageTitle>
      <p className="max-w-2xl text-base text-slate-700">
        On the 1st of each month the month before is invoiced: every lead bought, with its reference and price, the returns
        and credits, the payments, and what is due by when. Each invoice is also e-mailed to you as a PDF.
      </p>
      <ErrorNotice message={invoices.error} />
      {!invoices.loading && !invoices.error && invoices.items.length === 0 ? (
        <EmptyNote>No invoices yet. The first comes on the 1st of the month after your first lead.</EmptyNote>
      ) : null}
      {invoices.items.length ? (
        <Card title="Monthly invoices" id="invoices-heading">
          <InvoiceRows items={invoices.items} linkTo={invoicePagePath} />
        </Card>
      ) : null}
      {invoices.loading ? <Loading label="Loading invoices…" /> : null}
      {invoices.nextCursor && !invoices.loading ? (
        <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={invoices.loadMore}>Load more</button>
      ) : null}
    </div>
  )
}
