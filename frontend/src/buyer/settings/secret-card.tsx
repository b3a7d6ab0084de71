import { RotateCw, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, request } from '../api'
import { formatDateTime } from '../format'
import type { BuyerSettings, RotatedSecret } from '../types'
import { Card, CopyButton, ErrorNotice } from '../ui'

const small = 'min-h-11 px-4 py-2 text-sm'

/** The secret that signs every ping and post: rotated on demand, the old one verifying for 24 hours. */
export function SecretCard({ settings, onRotated }: { settings: BuyerSettings; onRotated: () => void }) {
  const [confirming, setConfirming] = useState(false)
  const [rotated, setRotated] = useState<RotatedSecret | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [openedAt] = useState(() => Date.now())
  const overlapUntil = settings.secretOverlapUntil && Date.parse(settings.secretOverlapUntil) > openedAt ? settings.secretOverlapUntil : null

  const rotate = async () => {
    setBusy(true)
    setError(null)
    try {
      setRotated(await request<RotatedSecret>('POST', '/settings/secret'))
      setConfirming(false)
      onRotated()
    } catch (failure) {
      setError((failure as BuyerError).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title="Signing secret" id="secret-heading">
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          Every ping and post carries a <code className="font-mono">webhook-signature</code> header made with your secret
          (Standard Webhooks). After a rotation, the previous secret signs too, as a second signature, for 24 hours.
        </p>
        {overlapUntil && !rotated ? (
          <p className="text-sm text-slate-800">Your previous secret still signs until <strong>{formatDateTime(overlapUntil)}</strong>.</p>
        ) : null}
        {rotated ? (
          <section aria-labelledby="new-secret-heading" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-3">
            <h3 id="new-secret-heading" className="flex items-center gap-2 font-bold text-amber-900">
              <TriangleAlert size={18} aria-hidden="true" /> Your new signing secret
            </h3>
            <p className="text-sm text-amber-900">Copy it now: it is shown only this once.</p>
            <p aria-label="The new signing secret" className="break-all rounded bg-white px-3 py-2 font-mono text-sm">{rotated.secret}</p>
            <CopyButton text={rotated.secret} label="Copy secret" className={buttonClasses('primary', small)} />
            <p className="text-sm text-amber-900">
              The previous secret keeps verifying until <strong>{formatDateTime(rotated.previousValidUntil)}</strong>: switch your
              receiver over before then.
            </p>
          </section>
        ) : null}
        <ErrorNotice message={error} />
        {confirming ? (
          <div role="group" aria-label="Confirm the rotation" className="space-y-2 rounded-lg bg-slate-100 p-3">
            <p className="text-sm text-slate-800">
              A new secret signs from now on. Your receiver must accept it within 24 hours, when the current one stops signing.
            </p>
            <div className="flex flex-wrap gap-2">
              <button type="button" className={buttonClasses('primary', small)} disabled={busy} onClick={() => void rotate()}>Rotate now</button>
              <button type="button" className={buttonClasses('secondary', small)} onClick={() => setConfirming(false)}>Cancel</button>
            </div>
          </div>
        ) : (
          <button type="button" className={buttonClasses('secondary', 'w-full sm:w-auto')} onClick={() => setConfirming(true)}>
            <RotateCw size={18} aria-hidden="true" /> Rotate signing secret
          </button>
        )}
      </div>
    </Card>
  )
}
