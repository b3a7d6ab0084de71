// The provider's standing (GET /api/pro/providers/{id}/standing): the banner every page shows while
// it is not receiving leads, and its terms and money on its profile's Status card.
import { useEffect, useState } from 'react'
import { StandingBanner as Banner, standingRows, type AccountStanding, type HoldLinks } from '../shell/account-standing'
import { providerPath, request } from './api'
import { PATHS } from './paths'
import { useSignedIn } from './session'

const LINKS: HoldLinks = {
  funds: { to: PATHS.money, label: 'Money' },
  overdue: { to: PATHS.money, label: 'Your invoices' },
}

function useStanding(): AccountStanding | null {
  const { provider } = useSignedIn()
  const [standing, setStanding] = useState<AccountStanding | null>(null)
  useEffect(() => {
    let current = true
    // A banner that cannot be read is no banner: the pages say what failed themselves.
    request<AccountStanding>('GET', providerPath(provider.id, '/standing'))
      .then((answer) => current && setStanding(answer), () => undefined)
    return () => void (current = false)
  }, [provider.id])
  return standing
}

/** Across the top of every page, only while leads have stopped. */
export function StandingBanner() {
  return <Banner standing={useStanding()} links={LINKS} width="max-w-3xl" />
}

/** How the provider pays, its balance and what it may still spend (nothing until read). */
export function StandingFacts() {
  const standing = useStanding()
  if (!standing) return null
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" aria-label="How you pay">
      {standingRows(standing).map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-semibold text-slate-700">{label}</dt>
          <dd className="min-w-0 break-words">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
