import type { ReactNode } from 'react'

export function SectionHeading({ id, children, lead }: { id?: string; children: ReactNode; lead?: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <h2 id={id} className="text-2xl font-bold text-brand-900 sm:text-3xl">
        {children}
      </h2>
      {lead ? <p className="mt-3 text-slate-600">{lead}</p> : null}
    </div>
  )
}
