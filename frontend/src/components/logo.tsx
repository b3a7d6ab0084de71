import { Link } from 'react-router'
import { paths } from '../lib/paths'

export function Logo({ brandName = 'ServiceMatch' }: { brandName?: string }) {
  return (
    <Link
      to={paths.home}
      className="flex items-center gap-2 rounded-md text-xl font-extrabold tracking-tight text-brand-900 focus-visible:outline-3 focus-visible:outline-brand-600"
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
        <rect width="32" height="32" rx="8" className="fill-brand-700" />
        <path d="M9 17l5 5 9-11" fill="none" stroke="white" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>
        {brandName.replace(/Match$/, '')}
        <span className="text-accent-500">{brandName.endsWith('Match') ? 'Match' : ''}</span>
      </span>
    </Link>
  )
}
