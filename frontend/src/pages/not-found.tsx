import { ButtonLink } from '../components/button'
import { Container } from '../components/container'
import { paths } from '../lib/paths'

/** Shown for a catalogue entry that does not exist (unknown category or service). */
export default function NotFoundPage({ title = 'Page Not Found', message }: { title?: string; message?: string }) {
  return (
    <Container className="py-20 text-center">
      <h1 className="text-3xl font-bold text-brand-900">{title}</h1>
      <p className="mx-auto mt-4 max-w-xl text-slate-600">
        {message ?? 'We could not find what you were looking for. Browse our services from the home page.'}
      </p>
      <ButtonLink to={paths.home} className="mt-8">
        Return Home
      </ButtonLink>
    </Container>
  )
}
