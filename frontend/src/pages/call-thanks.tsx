import { useEffect } from 'react'
import { Navigate, useLocation } from 'react-router'
import { CallCentreClosed } from '../features/call-flow/call-centre-closed'
import { useCallCentre, type CallHours } from '../features/call-flow/call-hours'
import { PhoneLink } from '../features/call-flow/phone-link'
import type { FunnelService } from '../lib/funnel-events'
import { FullScreenLoader, useElapsed } from '../components/full-screen-loader'
import { loadCallTracking } from '../lib/third-party/call-tracking'
import { useCompleteRegistration } from '../lib/third-party/use-complete-registration'

interface CallThanksState {
  phoneNumber?: string
  callToAction?: string
  jsid?: string
  service?: string
  vertical?: string
  callHours?: CallHours
}

/** /call-thanks: the 4 s availability check, then the pre-qualification and the number to call. */
export default function CallThanksPage() {
  const state = (useLocation().state ?? {}) as CallThanksState
  if (!state.phoneNumber) return <Navigate to="/" replace />
  const service = state.service ? { id: state.service, vertical: state.vertical ?? '' } : undefined
  return (
    <CallThanks
      phoneNumber={state.phoneNumber} callToAction={state.callToAction} jsid={state.jsid} service={service}
      hours={state.callHours}
    />
  )
}

function CallThanks({ phoneNumber, callToAction, jsid, service, hours }: {
  phoneNumber: string; callToAction?: string; jsid?: string; service?: FunnelService; hours?: CallHours
}) {
  const done = useElapsed()
  const config = useCompleteRegistration()
  const centre = useCallCentre(hours)
  useEffect(() => {
    // The tracking script swaps in the number that attributes this call.
    if (config && jsid) loadCallTracking(config.callTrackingScriptUrl, jsid)
  }, [config, jsid])

  if (!done) return <FullScreenLoader title="Checking Availability In Your Area..." subtitle="Please wait a moment" />
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center px-4 py-10 text-center sm:py-16">
      <h1 className="text-2xl font-bold leading-snug text-brand-900 sm:text-3xl">
        Success! You've been pre-qualified for up to $25,000 in final expense coverage for your loved ones.
      </h1>
      {centre?.open ? (
        <>
          {callToAction && <p className="mt-4 text-lg text-slate-700">{callToAction}</p>}
          <p className="mt-8 text-lg font-semibold text-slate-900">Call before {centre.closes} to claim your coverage:</p>
          <PhoneLink
            phoneNumber={phoneNumber}
            pixelId={config?.pixelId ?? ''}
            asButton
            className="mt-3"
            service={service}
          />
          <div className="mt-8 rounded-xl bg-slate-50 px-6 py-4 text-slate-700">
            <p className="font-semibold">Current Wait Time: 1 Minute</p>
            <p className="mt-1 text-sm">3 Agents Available - Enrollment Ends @ {centre.closes}</p>
          </div>
        </>
      ) : centre && hours ? (
        <div className="mt-8 rounded-xl bg-slate-50 px-6 py-4">
          <CallCentreClosed hours={hours} centre={centre} />
        </div>
      ) : null}
    </div>
  )
}
