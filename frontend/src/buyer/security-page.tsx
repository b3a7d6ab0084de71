import { TwoStepCard } from '../shell/two-step-card'
import { client, useApi } from './api'
import { formatDate } from './format'
import { useSession, useSignedIn } from './session'
import type { Items, Person } from './types'
import { Card, ErrorNotice, Loading, PageTitle } from './ui'

/** The optional second factor (a code from an authenticator app at every sign-in), and who else signs in. */
export default function SecurityPage() {
  return (
    <div className="space-y-4">
      <PageTitle>Security</PageTitle>
      <div className="grid gap-4 lg:grid-cols-2">
        <TotpCard />
        <PeopleCard />
      </div>
    </div>
  )
}

function TotpCard() {
  const { account } = useSignedIn()
  const { setTotp } = useSession()
  return <TwoStepCard client={client} enabled={account.totpEnabled} setEnabled={setTotp} device="device" />
}

/** The buyer's people, read-only: ServiceMatch invites and removes them. */
function PeopleCard() {
  const { buyer, account } = useSignedIn()
  const people = useApi<Items<Person>>('/people')
  return (
    <Card title={`People of ${buyer.name}`} id="people-heading">
      <p className="mb-3 text-sm text-slate-700">
        Everyone here signs in to this portal and sees the same leads and settings. Ask your ServiceMatch account manager
        to invite someone or to remove them.
      </p>
      <ErrorNotice message={people.error} />
      {people.data ? (
        <ul className="divide-y divide-slate-200">
          {people.data.items.map((person) => (
            <li key={person.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-2">
              <span className="min-w-0 break-all text-base text-slate-900">
                {person.email}{person.id === account.id ? <span className="text-sm text-slate-600"> (you)</span> : null}
              </span>
              <span className="text-sm text-slate-600">
                {!person.active ? 'Removed' : person.hasPassword ? `Since ${formatDate(person.createdAt)}` : 'Invited, no password yet'}
              </span>
            </li>
          ))}
        </ul>
      ) : people.loading ? <Loading /> : null}
    </Card>
  )
}
