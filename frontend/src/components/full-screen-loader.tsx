import { useEffect, useState } from 'react'

// Spec section 9: the thank-you pages hold their loader for 4 s.
export const LOADER_MS = 4000

/** True once `ms` have passed since the component mounted. */
export function useElapsed(ms = LOADER_MS): boolean {
  const [elapsed, setElapsed] = useState(false)
  useEffect(() => {
    const timer = window.setTimeout(() => setElapsed(true), ms)
    return () => window.clearTimeout(timer)
  }, [ms])
  return elapsed
}

export function FullScreenLoader({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[70vh] flex-col items-center justify-center px-4 text-center">
      <span aria-hidden="true" className="size-14 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600" />
      <p className="mt-6 text-xl font-semibold text-brand-900">{title}</p>
      {subtitle && <p className="mt-2 text-slate-600">{subtitle}</p>}
    </div>
  )
}
