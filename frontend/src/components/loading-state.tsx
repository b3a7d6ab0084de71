import { Container } from './container'

// A screen tall, so the footer does not show and then jump down when the content arrives.
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Container className="min-h-screen py-24 text-center">
      <p role="status" className="text-slate-500">{label}</p>
    </Container>
  )
}

export function CatalogError({ message }: { message: string }) {
  return (
    <Container className="py-24 text-center">
      <p role="alert" className="text-red-700">The services could not be loaded: {message}</p>
    </Container>
  )
}
