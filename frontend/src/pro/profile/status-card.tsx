import { BadgeCheck, Pause, Play } from 'lucide-react'
import { Fragment, useState } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { PortalError, providerPath, request, type Profile } from '../api'
import { formatMoney } from '../format'
import { StandingFacts } from '../standing-banner'
import { Card, ErrorNotice } from '../ui'

/** Whether leads may come now, what they cost, and the switches that decide it: pause or resume,
 * auto-accept, exclusive leads. */
export function StatusCard({ profile, onSaved }: { profile: Profile; onSaved: (profile: Profile) => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const call = async (method: string, rest: string, body?: unknown) => {
    setBusy(true)
    setError(null)
    try {
      onSaved(await request<Profile>(method, providerPath(profile.id, rest), body))
    } catch (failure) {
      setError((failure as PortalError).message)
    } finally {
      setBusy(false)
    }
  }
  const pausedByUs = profile.pausedBy === 'operator'
  return (
    <Card title="Status" id="status-heading">
      <div className="space-y-4">
        <p className="flex items-center gap-2 text-base">
          <span className={`inline-block size-3 rounded-full ${profile.active ? 'bg-green-600' : 'bg-slate-400'}`} aria-hidden="true" />
          <span className="font-semibold">{profile.active ? 'Active' : 'Paused'}</span>
          {profile.verified ? (
            <span className="ml-auto inline-flex items-center gap-1 rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-800">
              <BadgeCheck size={16} aria-hidden="true" /> Verified
            </span>
          ) : null}
        </p>
        {profile.verified ? null : (
          <p className="text-sm text-slate-600">Not verified yet: the verified badge shows once our team has checked your licence.</p>
        )}
        {profile.mode === 'review' ? (
          <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900">
            Each matching lead comes to you as an offer: you see the job first, and pay only for the offers you accept.
          </p>
        ) : null}
        {profile.leadPrices.length ? (
          <dl className="grid grid-cols-[1fr_auto_auto] gap-x-4 gap-y-1 text-sm" aria-label="Your price per accepted lead">
            <dt className="font-semibold text-slate-700">Price per lead</dt>
            <dd className="font-semibold text-slate-700">Shared</dd>
            <dd className="font-semibold text-slate-700">Exclusive</dd>
            {profile.leadPrices.map((price) => (
              <Fragment key={price.vertical}>
                <dt>{price.verticalName}</dt>
                <dd className="tabular-nums">{formatMoney(price.sharedCents)}</dd>
                <dd className="tabular-nums">{formatMoney(price.exclusiveCents)}</dd>
              </Fragment>
            ))}
          </dl>
        ) : null}
        {pausedByUs ? <p className="text-sm text-amber-900">Our team paused your account. Contact us to resume it.</p> : null}
        <StandingFacts />
        <ErrorNotice message={error} />
        {profile.active ? (
          <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} disabled={busy}
            onClick={() => void call('POST', '/pause')}>
            <Pause size={18} aria-hidden="true" /> Pause leads
          </button>
        ) : pausedByUs ? null : (
          <button type="button" className={buttonClasses('primary', 'w-full sm:w-auto')} disabled={busy}
            onClick={() => void call('POST', '/resume')}>
            <Play size={18} aria-hidden="true" /> Resume leads
          </button>
        )}
        <label className="flex min-h-11 cursor-pointer items-start gap-3 border-t border-slate-200 pt-4">
          <input type="checkbox" role="switch" className="mt-1 size-5 shrink-0 accent-brand-700" checked={profile.autoAccept}
            disabled={busy} onChange={(event) => void call('PATCH', '', { autoAccept: event.currentTarget.checked })} />
          <span>
            <span className="block text-base font-semibold">Accept offers automatically</span>
            <span className="block text-sm text-slate-600">On: offers that fit your profile will be accepted for you, without waiting for your tap.</span>
          </span>
        </label>
        <label className="flex min-h-11 cursor-pointer items-start gap-3">
          <input type="checkbox" role="switch" className="mt-1 size-5 shrink-0 accent-brand-700" checked={profile.exclusiveLeads}
            disabled={busy} onChange={(event) => void call('PATCH', '', { exclusiveLeads: event.currentTarget.checked })} />
          <span>
            <span className="block text-base font-semibold">Exclusive leads</span>
            <span className="block text-sm text-slate-600">
              On: when no other company has a lead, it may be offered to you alone, at the exclusive price.
            </span>
          </span>
        </label>
      </div>
    </Card>
  )
}
