// Building blocks of the buyer portal's pages: one column and large tap targets on a phone, wider
// cards and tables on a desk. What the provider portal draws alike lives in the shell
// (shell/portal-ui.tsx).
import { Check, Copy } from 'lucide-react'
import { useState, type ReactNode } from 'react'

export const inputClass =
  'block w-full min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 aria-invalid:border-red-600 disabled:bg-slate-100 disabled:text-slate-600'

// A link inside text or a row: tall enough to tap on a phone.
export const rowLinkClass = 'inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-2'

export { Loading } from '../shell/ui'
export { Card, ErrorNotice, SuccessNotice } from '../shell/portal-ui'

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-bold text-slate-900">{children}</h1>
      {actions}
    </div>
  )
}

/** Label and value pairs: stacked on a phone, side by side on a wider screen. */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(9rem,auto)_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="-mt-1 min-w-0 break-words text-slate-900 sm:mt-0">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

export function EmptyNote({ children }: { children: ReactNode }) {
  return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">{children}</p>
}

/** Copies `text` to the clipboard and says so where the button was pressed. */
export function CopyButton({ text, label, className }: { text: string; label: string; className: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setState('copied')
    } catch {
      setState('failed')
    }
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className={className} onClick={() => void copy()}>
        {state === 'copied' ? <Check size={18} aria-hidden="true" /> : <Copy size={18} aria-hidden="true" />} {label}
      </button>
      <span role="status" className="text-sm text-slate-700">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Your browser did not allow copying: select the text instead.' : ''}
      </span>
    </span>
  )
}

/** Whom the portal is for, beside the brand (shell/portal-ui.tsx BrandMark). */
export const AUDIENCE = 'for buyers'
