import { useEffect, useState } from 'react'
import { BuyerError, request } from '../api'
import type { BuyerSettings } from '../types'
import { ErrorNotice, Loading, PageTitle } from '../ui'
import { AuditCard } from './audit-card'
import { BuyingForm } from './buying-form'
import { SecretCard } from './secret-card'
import { StatusCard } from './status-card'
import { UrlsCard } from './urls-card'

/** The buyer's own settings, each change on the audit log below with who made it. */
export default function SettingsPage() {
  const [settings, setSettings] = useState<BuyerSettings | null>(null)
  const [error, setError] = useState<string | null>(null)
  // Each change made here reads the audit log again (its card starts over with a new key).
  const [changes, setChanges] = useState(0)

  useEffect(() => {
    let current = true
    request<BuyerSettings>('GET', '/settings')
      .then((answer) => current && setSettings(answer))
      .catch((failure: BuyerError) => current && setError(failure.message))
    return () => void (current = false)
  }, [])

  const changed = (next: BuyerSettings) => {
    setSettings(next)
    setChanges((count) => count + 1)
  }
  const reread = () => {
    setChanges((count) => count + 1)
    request<BuyerSettings>('GET', '/settings').then(setSettings, () => undefined)
  }

  return (
    <div className="space-y-4">
      <PageTitle>Settings</PageTitle>
      <ErrorNotice message={error} />
      {settings ? (
        <>
          {/* On a phone one column, the pause first; on a desk what is bought beside the rest. The
              columns' boxes vanish on a phone (contents), so the cards take their own order. */}
          <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
            <div className="contents lg:block lg:min-w-0">
              <div className="order-2 lg:order-none"><BuyingForm settings={settings} onSaved={changed} /></div>
            </div>
            <div className="contents lg:block lg:min-w-0 lg:space-y-4">
              <div className="order-1 lg:order-none"><StatusCard settings={settings} onChanged={changed} /></div>
              <div className="order-3 lg:order-none"><UrlsCard settings={settings} onSaved={changed} /></div>
              <div className="order-4 lg:order-none"><SecretCard settings={settings} onRotated={reread} /></div>
            </div>
          </div>
          <AuditCard key={changes} />
        </>
      ) : error ? null : <Loading label="Loading your settings…" />}
    </div>
  )
}
