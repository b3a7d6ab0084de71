// Sending a finished questionnaire, as both flows do it: the reCAPTCHA and TrustedForm scripts
// loaded while the visitor answers, a reCAPTCHA token asked for at the end, one request id for every
// try of the same answers, and a fresh one once the server refused them.
import { useEffect, useRef } from 'react'
import type { ClickData } from '../lib/third-party/click'
import { getRecaptchaToken, preloadRecaptcha } from '../lib/third-party/recaptcha'
import { loadTrustedForm } from '../lib/third-party/trustedform'
import type { FieldDefinition, PublicConfig } from '../lib/types'
import { RECAPTCHA_FAILED } from './messages'
import type { FormValues } from './steps'
import { newRequestId, submitLead, type SubmitResult } from './submit'
import type { SubmitControls } from './use-questionnaire'

/** What goes into a payload besides the answers: its request id, and the reCAPTCHA token if the site asks for one. */
export interface SendingTicket {
  requestId: string
  recaptchaToken: string | undefined
}

/** What each flow builds its payload from: the answers, the click data, and the ticket. */
export interface PayloadParts {
  fields: FieldDefinition[]
  values: FormValues
  click: ClickData
  requestId: string
  recaptchaToken?: string
}

export interface SendOptions {
  // How many times to send while no answer comes or the server fails (status 0 or 5xx).
  tries?: number
  retryDelayMs?: number
  // Told of every send that did not succeed, before any retry.
  onFailure?: (status: number) => void
}

const isRetryable = (status: number) => status === 0 || status >= 500

export function useLeadSending(config: Pick<PublicConfig, 'trustedformEnabled' | 'recaptchaSiteKey'>) {
  const requestId = useRef(newRequestId())
  const { trustedformEnabled, recaptchaSiteKey } = config

  useEffect(() => {
    if (trustedformEnabled) loadTrustedForm()
    if (recaptchaSiteKey) preloadRecaptcha(recaptchaSiteKey)
  }, [trustedformEnabled, recaptchaSiteKey])

  /** The ticket for a send; null when reCAPTCHA gave no token (the form says so and is idle again). */
  async function ticket({ setAlert, setBusy }: Pick<SubmitControls, 'setAlert' | 'setBusy'>): Promise<SendingTicket | null> {
    let recaptchaToken: string | undefined
    if (recaptchaSiteKey) {
      const token = await getRecaptchaToken(recaptchaSiteKey)
      if (!token) {
        setAlert(RECAPTCHA_FAILED)
        setBusy('idle')
        return null
      }
      recaptchaToken = token
    }
    return { requestId: requestId.current, recaptchaToken }
  }

  /** Sends a payload to `path` and gives the last answer. A failed send is tried again with the same
   * request id, so the server stores one lead however many tries reach it; refused answers will be
   * corrected into a new request. */
  async function send(payload: object, path: string, { tries = 1, retryDelayMs = 0, onFailure }: SendOptions = {}): Promise<SubmitResult> {
    for (let attempt = 1; ; attempt += 1) {
      const result = await submitLead(payload, path)
      if (result.ok) return result
      onFailure?.(result.status)
      if (!isRetryable(result.status)) {
        requestId.current = newRequestId()
        return result
      }
      if (attempt >= tries) return result
      await new Promise((resolve) => window.setTimeout(resolve, retryDelayMs))
    }
  }

  return { ticket, send }
}
