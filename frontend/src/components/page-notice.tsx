import type { ReactNode } from 'react'

/** How a link page's action ended: done (a status), or refused with the server's plain message (an alert). */
export function PageNotice({ tone, children }: { tone: 'done' | 'refused'; children: ReactNode }) {
  return tone === 'done' ? (
    <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
      {children}
    </p>
  ) : (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 font-medium text-red-800">
      {children}
    </p>
  )
}
