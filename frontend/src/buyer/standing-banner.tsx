// The buyer's standing (GET /api/buyer/account/standing): the banner every page shows while it is
// not receiving leads, and its terms and money in the Settings page's Status card.
import { StandingBanner as Banner, standingRows, type AccountStanding, type HoldLinks } from '../shell/account-standing'
import { useApi } from './api'
import { PATHS } from './paths'
import { Facts } from './ui'

const LINKS: HoldLinks = {
  funds: { to: PATHS.billing, label: 'Add funds' },
  overdue: { to: PATHS.invoices, label: 'Your invoices' },
}

function useStanding() {
  return useApi<AccountStanding>('/account/standing')
}

/** Across the top of every page, only while leads have stopped. */
export function StandingBanner() {
  const { data } = useStanding()
  return <Banner standing={data} links={LINKS} width="max-w-6xl" />
}

/** How the buyer pays, its balance and what it may still spend (nothing until read). */
export function StandingFacts() {
  const { data } = useStanding()
  return data ? <Facts rows={standingRows(data)} /> : null
}
