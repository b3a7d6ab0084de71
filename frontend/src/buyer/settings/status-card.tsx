import { Pause, Play } from 'lucide-react'
import { useState } from 'react'
import { buttonClasses } from '../../components/button-classes'
import { BuyerError, request } from '../api'
import { StandingFacts } from '../standing-banner'
import type { BuyerSettings } from '../types'
import { Card, ErrorNotice, Facts } from '../ui'

function returnPolicy(settings: BuyerSettings): string {
  if (settings.returnWindowDays <= 0) return 'No returns'
  const days = settings.returnWindowDays === 1 ? '1 day' : `${settings.returnWindowDays} days`
  const share = settings.maxReturnPercent === null ? '' : `, up to ${settings.maxReturnPercent}% of last month’s leads`
  return `Within ${days} of buying${share}`
}

/** Buying or paused (the buyer's own switch), and the terms ServiceMatch sets. */
export function StatusCard({ settings, onChanged }: { settings: BuyerSettings; onChanged: (settings: BuyerSettings) => void }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const toggle = async () => {
    setBusy(true)
    setError(null)
    try {
      onChanged(await request<BuyerSettings>('POST', settings.paused ? '/settings/resume' : '/settings/pause'))
    } catch (failure) {
      setError((failure as BuyerError).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card title="Status" id="status-heading">
      <div className="space-y-3">
        <p className="flex items-center gap-2 text-base">
          <span className={`size-3 rounded-full ${settings.paused ? 'bg-amber-500' : 'bg-green-600'}`} aria-hidden="true" />
          <strong>{settings.paused ? 'Paused' : 'Buying'}</strong>
          <span className="text-sm text-slate-600">{settings.paused ? 'no pings or posts until you resume' : 'pinged for leads that fit'}</span>
        </p>
        <button type="button" className={buttonClasses(settings.paused ? 'primary' : 'secondary', 'w-full sm:w-auto')} disabled={busy}
          onClick={() => void toggle()}>
          {settings.paused ? <><Play size={18} aria-hidden="true" /> Resume buying</> : <><Pause size={18} aria-hidden="true" /> Pause buying</>}
        </button>
        <ErrorNotice message={error} />
        <Facts rows={[
          ['Account', settings.name],
          ['Buying by', settings.mode === 'ping-post' ? 'Ping and post (you bid)' : 'Fixed price'],
          ['Leads sold to you', settings.exclusive ? 'Exclusive (to you only)' : 'Shared (up to three companies)'],
          ['Returns', returnPolicy(settings)],
        ]} />
        <StandingFacts />
      </div>
    </Card>
  )
}
