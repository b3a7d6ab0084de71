// Building blocks of the portal's pages: made for a phone first (large tap targets, one column).
import type { ReactNode } from 'react'
import { Notice } from '../shell/ui'

export const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 aria-invalid:border-red-600'

export { Loading } from '../shell/ui'

const NOTICE = { rounded: 'rounded-lg', padding: 'px-4 py-3' }

export function ErrorNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="error" message={message} {...NOTICE} />
}

export function SuccessNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="success" message={message} {...NOTICE} />
}

export function Card({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={id} className="mb-3 text-lg font-bold text-brand-900">{title}</h2>
      {children}
    </section>
  )
}

/** The brand as the portal shows it (the site's logo links into the site's own router, not this one). */
export function BrandMark({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className={`flex items-center gap-2 font-extrabold tracking-tight ${inverted ? 'text-white' : 'text-brand-900'}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" className={inverted ? 'fill-white/15' : 'fill-brand-700'} />
        <path d="M9 17l5 5 9-11" fill="none" stroke="white" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="leading-tight">ServiceMatch <span className={`whitespace-nowrap text-sm font-semibold ${inverted ? 'text-blue-100' : 'text-slate-600'}`}>for providers</span></span>
    </span>
  )
}

/** The frame of the pages seen before signing in: the brand, then one card. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-6 px-4 py-10">
      <BrandMark />
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 className="mb-4 text-2xl font-bold text-brand-900">{title}</h1>
        {children}
      </section>
    </main>
  )
}
