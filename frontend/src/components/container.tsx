import type { ReactNode } from 'react'

/** The page's content column: full width on phones, centred and capped on wide screens. */
export function Container({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <div className={`mx-auto w-full max-w-6xl px-4 sm:px-6 ${className}`}>{children}</div>
}
