// The pieces the provider portal and the buyer portal draw alike: made for a phone first (large
// tap targets, one column). Where they differ it is in words, which each portal passes in (its
// audience: "for providers", "for buyers").
import { Mail, Phone } from 'lucide-react'
import type { ReactNode } from 'react'
import { formatPhone } from '../lib/phone'
import { Notice } from './ui'

const NOTICE = { rounded: 'rounded-lg', padding: 'px-4 py-3' }

export function ErrorNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="error" message={message} {...NOTICE} />
}

export function SuccessNotice({ message }: { message: string | null | undefined }) {
  return <Notice kind="success" message={message} {...NOTICE} />
}

export function Card({ title, id, children, actions }: { title: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-bold text-brand-900">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  )
}

/** The consumer's answers to the request's questions, as both portals show a lead: the title names
 * the consumer in the portal's own words, and the list's layout is the page's. */
export function AnswersCard({ title, answers, listClassName }: {
  title: string
  answers: { question: string; answer: string }[]
  listClassName: string
}) {
  return (
    <Card title={title} id="answers-heading">
      {answers.length ? (
        <dl className={listClassName}>
          {answers.map(({ question, answer }) => (
            <div key={question}>
              <dt className="text-sm text-slate-600">{question}</dt>
              <dd className="text-base font-semibold text-slate-900">{answer}</dd>
            </div>
          ))}
        </dl>
      ) : <p className="text-sm text-slate-600">No answers beyond the service and the place.</p>}
    </Card>
  )
}

/** The brand as a portal shows it, with whom the portal is for (the site's logo links into the
 * site's own router, not a portal's). */
export function BrandMark({ audience, inverted = false }: { audience: string; inverted?: boolean }) {
  return (
    <span className={`flex items-center gap-2 font-extrabold tracking-tight ${inverted ? 'text-white' : 'text-brand-900'}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7 shrink-0">
        <rect width="32" height="32" rx="8" className={inverted ? 'fill-white/15' : 'fill-brand-700'} />
        <path d="M9 17l5 5 9-11" fill="none" stroke="white" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="leading-tight">ServiceMatch <span className={`whitespace-nowrap text-sm font-semibold ${inverted ? 'text-blue-100' : 'text-slate-600'}`}>{audience}</span></span>
    </span>
  )
}

/** The frame of the pages seen before signing in: the brand, then one card. */
export function AuthFrame({ audience, title, children }: { audience: string; title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-6 px-4 py-10">
      <BrandMark audience={audience} />
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h1 className="mb-4 text-2xl font-bold text-brand-900">{title}</h1>
        {children}
      </section>
    </main>
  )
}

/** A customer's phone and e-mail as links that call or write to them. */
export function ContactLinks({ phone, email }: { phone: string; email: string | null | undefined }) {
  const tel = phone.replace(/[^\d+]/g, '')
  const linkClass = 'flex min-h-11 items-center gap-2 break-all text-base font-semibold text-brand-700 underline'
  return (
    <>
      <a href={`tel:${tel}`} className={linkClass}><Phone size={18} aria-hidden="true" className="shrink-0" /> {formatPhone(phone)}</a>
      {email ? (
        <a href={`mailto:${email}`} className={linkClass}><Mail size={18} aria-hidden="true" className="shrink-0" /> {email}</a>
      ) : null}
    </>
  )
}
