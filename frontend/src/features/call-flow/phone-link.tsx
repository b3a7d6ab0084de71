import { sendServiceEvent, type FunnelService } from '../../lib/funnel-events'
import { trackPixel } from '../../lib/third-party/pixel'

/** tel: URI of a US number as shown, e.g. "(888) 555-0142" -> "tel:+18885550142". */
export function telHref(phoneNumber: string): string {
  const digits = phoneNumber.replace(/\D/g, '')
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
  return `tel:+1${national}`
}

/** The tap-to-call link; a tap is the pixel's Contact event and, given the service, a call_click funnel event. */
export function PhoneLink({
  phoneNumber,
  pixelId,
  asButton = false,
  className = '',
  service,
}: {
  phoneNumber: string
  pixelId: string
  asButton?: boolean
  className?: string
  service?: FunnelService
}) {
  const look = asButton
    ? 'rounded-xl bg-accent-500 px-8 py-4 text-2xl text-white shadow-lg hover:bg-accent-600'
    : 'text-brand-700 underline underline-offset-4 hover:text-brand-900'
  return (
    <a
      href={telHref(phoneNumber)}
      onClick={() => {
        trackPixel(pixelId, 'Contact')
        if (service) sendServiceEvent('call_click', service)
      }}
      className={`inline-block font-bold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${look} ${className}`}
    >
      {phoneNumber}
    </a>
  )
}
