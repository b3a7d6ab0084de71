import { Button } from '../../components/button'
import type { AccessReport } from './privacy-api'

// What each message was, in words; anything else shows as stored.
const WHAT: Record<string, string> = {
  lead: 'your request',
  receipt: 'your consent receipt',
  'lead.revoked': 'notice: stop contacting you',
  'lead.deleted': 'notice: delete your data',
  'lead.corrected': 'notice: correct your data',
  'lead.do_not_sell': 'notice: do not sell or share your data',
  'lead.discard': 'notice: delete your details (it did not get your request)',
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '')

/** Save the report as a JSON file, built in the browser: nothing personal travels in a URL. */
function download(report: AccessReport) {
  const blob = new Blob([JSON.stringify(report, null, 2)], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `my-data-${report.generatedAt.slice(0, 10)}.json`
  link.click()
  URL.revokeObjectURL(url)
}

/** Every lead, answer, consent record and delivery held about the person, readable. */
export function AccessReportView({ report }: { report: AccessReport }) {
  return (
    <div className="space-y-6">
      <Button onClick={() => download(report)}>Download as JSON</Button>
      {report.leads.length === 0 ? <p className="text-slate-700">We hold no requests for this contact.</p> : null}
      {report.leads.map((lead) => (
        <article key={lead.requestId} className="space-y-3 rounded-lg border border-slate-200 p-4">
          <h3 className="text-lg font-semibold text-slate-900">
            {lead.category || lead.service}, {when(lead.submittedAt)}
          </h3>
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
            {lead.inWords.map(({ question, answer }) => (
              <div key={question} className="contents">
                <dt className="font-semibold text-slate-700">{question}</dt>
                <dd className="break-words text-slate-900">{answer}</dd>
              </div>
            ))}
          </dl>
          {lead.consent ? (
            <details>
              <summary className="cursor-pointer font-semibold text-brand-700">
                Consent you gave on {when(lead.consent.givenAt)}
              </summary>
              <p className="mt-2 text-sm text-slate-700">{lead.consent.text}</p>
            </details>
          ) : null}
          {lead.revoked ? <p className="text-sm text-slate-700">Consent withdrawn {when(lead.revoked.at)} ({lead.revoked.how}).</p> : null}
          {lead.erased ? <p className="text-sm text-slate-700">Personal data erased {when(lead.erased.at)}.</p> : null}
          <section aria-label="Companies that received your contact details" className="text-sm">
            <h4 className="font-semibold text-slate-800">Companies that received your contact details</h4>
            {lead.companies?.length ? (
              <ul className="list-disc space-y-1 pl-6 text-slate-900">
                {lead.companies.map((company) => (
                  <li key={company.name} data-testid="report-company">
                    <span className="font-semibold">{company.name}</span>
                    <span className="block text-slate-700">{company.inWords}</span>
                  </li>
                ))}
              </ul>
            ) : lead.receivedBy.length ? (
              <ul className="list-disc pl-6 text-slate-900">
                {lead.receivedBy.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
            ) : (
              <p className="text-slate-700">None: your contact details were not given to any company.</p>
            )}
          </section>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="mb-1 text-left font-semibold text-slate-800">Everything we sent about it, and how it went</caption>
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-1 pr-3">Recipient</th>
                  <th scope="col" className="py-1 pr-3">What</th>
                  <th scope="col" className="py-1 pr-3">Status</th>
                  <th scope="col" className="py-1">When</th>
                </tr>
              </thead>
              <tbody>
                {lead.deliveries.map((delivery, position) => (
                  <tr key={position} className="border-b border-slate-100">
                    <td className="py-1 pr-3">{delivery.recipient}</td>
                    <td className="py-1 pr-3">{WHAT[delivery.what] ?? delivery.what}</td>
                    <td className="py-1 pr-3">{delivery.status}</td>
                    <td className="py-1">{when(delivery.receivedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </article>
      ))}
    </div>
  )
}
