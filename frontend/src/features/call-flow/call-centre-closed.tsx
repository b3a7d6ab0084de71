import { hoursInWords, type CallCentre, type CallHours } from './call-hours'

/** Instead of the number while the call centre is closed: its hours and when it next answers. */
export function CallCentreClosed({ hours, centre }: { hours: CallHours; centre: Extract<CallCentre, { open: false }> }) {
  return (
    <div data-testid="call-centre-closed">
      <p className="font-semibold text-slate-900">Our licensed agents take calls {hoursInWords(hours)}.</p>
      <p className="mt-1 text-sm text-slate-700">
        They are closed now and answer again at {centre.opens} {centre.day}. The number to call shows on this page
        when they do.
      </p>
    </div>
  )
}
