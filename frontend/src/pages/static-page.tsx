import type { ReactNode } from 'react'
import { Container } from '../components/container'

/** The shared frame of the text pages: a hero band with the title, then the content. */
export function StaticPage({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-900 to-brand-700 text-white">
        <Container className="py-12 sm:py-16">
          <h1 className="text-3xl font-extrabold sm:text-4xl">{title}</h1>
          {lead ? <p className="mt-4 max-w-3xl text-lg text-brand-100">{lead}</p> : null}
        </Container>
      </section>
      <Container className="py-10 sm:py-14">{children}</Container>
    </>
  )
}
