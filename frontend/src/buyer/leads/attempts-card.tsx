import { formatDateTime, formatDuration } from '../format'
import type { DeliveryAttempt } from '../types'
import { Card } from '../ui'

const status = (attempt: DeliveryAttempt) => (attempt.httpStatus === null ? 'no answer' : String(attempt.httpStatus))

function Answer({ text }: { text: string | null }) {
  return text ? <code className="block max-h-24 overflow-auto break-all whitespace-pre-wrap font-mono text-xs text-slate-800">{text}</code> : <>—</>
}

/** Every attempt to post this lead to the buyer: when, the HTTP status, how long, the answer's first bytes. */
export function AttemptsCard({ attempts }: { attempts: DeliveryAttempt[] }) {
  return (
    <Card title="Delivery attempts" id="attempts-heading">
      {attempts.length === 0 ? <p className="text-sm text-slate-700">No post of this lead was recorded.</p> : (
        <>
          <ol className="space-y-3 md:hidden">
            {attempts.map((attempt, index) => (
              <li key={index} className="rounded-lg bg-slate-50 p-3 text-sm">
                <p className="font-semibold text-slate-900">{formatDateTime(attempt.at)}</p>
                <p className="text-slate-700">HTTP {status(attempt)} · {formatDuration(attempt.durationMs)} · {attempt.outcome}</p>
                <div className="mt-1"><Answer text={attempt.answerStart} /></div>
              </li>
            ))}
          </ol>
          <table className="hidden w-full text-left text-sm md:table">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                {['Time', 'HTTP status', 'Duration', 'Outcome', 'Answer (first bytes)'].map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-semibold">{header}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt, index) => (
                <tr key={index} className="border-t border-slate-100 align-top">
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(attempt.at)}</td>
                  <td className="px-3 py-2 tabular-nums">{status(attempt)}</td>
                  <td className="px-3 py-2 tabular-nums whitespace-nowrap">{formatDuration(attempt.durationMs)}</td>
                  <td className="px-3 py-2">{attempt.outcome}</td>
                  <td className="w-1/2 px-3 py-2"><Answer text={attempt.answerStart} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Card>
  )
}
