import { useEffect, useRef } from 'react'
import { trackPixel } from './pixel'
import { usePublicConfig } from './public-config'

/** Sends the pixel's CompleteRegistration once per page view, as soon as the configuration is known. */
export function useCompleteRegistration() {
  const config = usePublicConfig()
  const sent = useRef(false)
  useEffect(() => {
    if (!config || sent.current) return
    sent.current = true
    trackPixel(config.pixelId, 'CompleteRegistration')
  }, [config])
  return config
}
