// A buyer's people: who may sign in to the buyer portal for it. Any operator reads the list; an
// admin invites by e-mail (a link to choose a password, 72 hours), sends the link again, or
// disables someone (signed out everywhere at once).
import { Ban, Send, UserPlus } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { ConsoleError, request } from '../api'
import { useCardAction } from '../directory-parts'
import { useApi } from '../use-api'
import { buttonClass, ErrorNotice, Field, formatTime, inputClass, Loading, SuccessNotice } from '../ui'

// The console's answers (backend/servicematch/console/buyer_people.py).
export type BuyerPerson = {
  id: string
  email: string
  active: boolean
  hasPassword: boolean
  createdAt: string
  invitedBy: string
}
type MailSent = { sent: boolean; error: string | null }
type Invited = { person: BuyerPerson; email: MailSent }

function personStatus(person: BuyerPerson): string {
  if (!person.active) return 'Disabled'
  return person.hasPassword ? 'Signs in' : 'Invited, no password yet'
}

function InviteForm({ path, onInvited }: { path: string; onInvited: (message: string) => void }) {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  async function invite(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    setFieldError(undefined)
    try {
      const answer = await request<Invited>('POST', path, { email: email.trim() })
      setEmail('')
      onInvited(answer.email.sent ? `Invited ${answer.person.email}: the link was e-mailed.`
        : `Invited ${answer.person.email}, but the e-mail was not sent (${answer.email.error}): send the link again.`)
    } catch (failure) {
      const refused = failure as ConsoleError
      setError(refused.message)
      setFieldError(refused.fields.email)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={invite} aria-label="Invite a person" className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1 basis-56">
        <Field label="E-mail of the person to invite" error={fieldError}>
          <input className={inputClass} type="email" required maxLength={254} autoComplete="off" value={email}
            onChange={(e) => setEmail(e.currentTarget.value)} />
        </Field>
      </div>
      <button type="submit" className={buttonClass('primary')} disabled={busy}>
        <UserPlus size={16} aria-hidden="true" /> {busy ? 'Inviting…' : 'Invite'}
      </button>
      <div className="basis-full"><ErrorNotice message={error} /></div>
    </form>
  )
}

function PersonRow({ person, path, isAdmin, onChanged }: {
  person: BuyerPerson
  path: string
  isAdmin: boolean
  onChanged: () => void
}) {
  const { run, notice, error, busy } = useCardAction()
  const personPath = `${path}/${encodeURIComponent(person.id)}`
  const inviteAgain = () => run(() => request('POST', `${personPath}/invite-again`), () => {
    onChanged()
    return [true, `A new link was e-mailed to ${person.email}; older links no longer work.`]
  })
  const disable = () => {
    if (!window.confirm(`Disable ${person.email}? They are signed out at once and cannot sign in until invited again.`)) return
    run(() => request('POST', `${personPath}/disable`), () => {
      onChanged()
      return [true, `${person.email} is disabled.`]
    })
  }
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="min-w-0 break-all font-medium">{person.email}</span>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${person.active ? 'bg-green-100 text-green-800'
          : 'bg-slate-200 text-slate-700'}`}>{personStatus(person)}</span>
      </div>
      <p className="text-xs text-slate-500">Invited {formatTime(person.createdAt)}{person.invitedBy && ` by ${person.invitedBy}`}</p>
      {isAdmin && (
        <div className="mt-1 flex flex-wrap gap-2">
          {(!person.hasPassword || !person.active) && (
            <button type="button" className={buttonClass('secondary')} disabled={busy} onClick={inviteAgain}
              aria-label={`Send the link again to ${person.email}`}>
              <Send size={16} aria-hidden="true" /> {person.active ? 'Send the link again' : 'Invite again'}
            </button>
          )}
          {person.active && (
            <button type="button" className={buttonClass('danger')} disabled={busy} onClick={disable}
              aria-label={`Disable ${person.email}`}>
              <Ban size={16} aria-hidden="true" /> Disable
            </button>
          )}
        </div>
      )}
      <div className="mt-1 space-y-1">
        <ErrorNotice message={error} />
        <SuccessNotice message={notice} />
      </div>
    </li>
  )
}

/** The People panel of one buyer's card. */
export function BuyerPeople({ buyerId, buyerName, isAdmin }: { buyerId: string; buyerName: string; isAdmin: boolean }) {
  const path = `/buyers/${encodeURIComponent(buyerId)}/people`
  const { data, error, loading, reload } = useApi<{ items: BuyerPerson[] }>(path)
  const [invited, setInvited] = useState<string | null>(null)
  return (
    <div className="mt-3" aria-label={`People of ${buyerName}`} role="region">
      <h3 className="mb-1 text-sm font-semibold text-slate-700">People (buyer portal)</h3>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && data.items.length === 0 && <p className="text-sm text-slate-500">Nobody signs in for this buyer yet.</p>}
      {data && data.items.length > 0 && (
        <ul className="divide-y divide-slate-100 text-sm">
          {data.items.map((person) => (
            <PersonRow key={person.id} person={person} path={path} isAdmin={isAdmin} onChanged={reload} />
          ))}
        </ul>
      )}
      {isAdmin && (
        <div className="mt-2 space-y-2">
          <SuccessNotice message={invited} />
          <InviteForm path={path} onInvited={(message) => { setInvited(message); reload() }} />
        </div>
      )}
    </div>
  )
}
