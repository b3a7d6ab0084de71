import { useMemo, useRef, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { SubmitTrust } from '../../components/submit-trust'
import { sendServiceEvent } from '../../lib/funnel-events'
import { paths } from '../../lib/paths'
import { collectClickData } from '../../lib/third-party/click'
import { readCertificateUrl } from '../../lib/third-party/trustedform'
import type { CatalogData, ServiceConfig } from '../../lib/types'
import type { FieldProps } from '../../questionnaire/fields/field-props'
import { useLeadSending } from '../../questionnaire/lead-sending'
import { REQUIRED_FIELD } from '../../questionnaire/messages'
import { QuestionnaireForm } from '../../questionnaire/questionnaire-form'
import { initialValues } from '../../questionnaire/steps'
import { useQuestionnaire, type QuestionnairePolicy } from '../../questionnaire/use-questionnaire'
import { firstContactFields } from '../../questionnaire/validation'
import { CallCentreClosed } from './call-centre-closed'
import { useCallCentre } from './call-hours'
import { PhoneLink } from './phone-link'
import { ageDisqualification, buildCallPayload, callFlowFields, previousStepIndex } from './call-steps'

// A failed send (no answer, or the server busy) is tried again with the same requestId, so the
// server stores one lead however many tries reach it; the visitor gets the number to call either way.
const SEND_TRIES = 3
const RETRY_DELAY_MS = 1000

/** The call-flow questionnaire of spec sections 2 and 4; ends on /call-thanks with the number to call.
 * Its policy over the shared questionnaire: the service's own fields only, the first e-mail and phone
 * of a step checked, an age outside the bounds sent to /disqualified, Go Back one step, and the answers
 * sent to /api/call-submit without holding the visitor back when that fails. */
export function CallFlow({
  service,
  catalog,
  initialAddress,
  renderAddress,
}: {
  service: ServiceConfig
  catalog: CatalogData
  initialAddress?: string
  renderAddress?: (props: FieldProps) => ReactNode
}) {
  const navigate = useNavigate()
  const config = catalog.config
  const fields = useMemo(() => callFlowFields(service), [service])
  const sending = useLeadSending(config)
  const container = useRef<HTMLDivElement>(null)

  const policy: QuestionnairePolicy = {
    // A date that does not exist or lies ahead is told on its step, before any age is worked out.
    // An address without its ZIP is told on its step too.
    localChecks: (stepFields) => [
      ...firstContactFields(stepFields), ...stepFields.filter((f) => f.type === 'date' || f.type === 'address'),
    ],
    remoteChecks: firstContactFields,
    stopsBeforeRemote(stepFields, values) {
      const tooYoungOrOld = ageDisqualification(stepFields, values)
      if (tooYoungOrOld) navigate(paths.disqualified, { replace: true, state: tooYoungOrOld })
      return tooYoungOrOld !== null
    },
    stepAfterDisqualified: previousStepIndex,
    async submit(values, { setBusy, setAlert }) {
      const ticket = await sending.ticket({ setBusy, setAlert })
      if (!ticket) return
      const payload = buildCallPayload({ service, fields, values, click: collectClickData(readCertificateUrl()), ...ticket })
      const result = await sending.send(payload, '/api/call-submit', {
        tries: SEND_TRIES,
        retryDelayMs: RETRY_DELAY_MS,
        // Spec section 8: the visitor still gets the number to call; the failure is only logged.
        onFailure: (status) => console.error('Failed to submit form', status),
      })
      if (result.ok) sendServiceEvent('submitted', service)
      navigate(paths.callThanks, {
        state: {
          phoneNumber: service.ringbaPhoneNumber,
          callToAction: service.phoneCallToAction,
          jsid: service.ringbaJSid,
          service: service.id,
          vertical: service.vertical,
          callHours: service.callHours,
          successMessage: service.successMessage,
          // The reference and the status token, so /call-thanks can show them and ask who has the request.
          ...(result.ok ? result.accepted : {}),
        },
      })
    },
  }
  const questionnaire = useQuestionnaire({
    funnel: service,
    fields,
    policy,
    container,
    initial: () => {
      const address = fields.find((field) => field.type === 'address')
      return initialValues(fields, [address && initialAddress ? { [address.id]: initialAddress } : null])
    },
  })

  return (
    <div ref={container}>
      <QuestionnaireForm
        questionnaire={questionnaire}
        label={`${service.name} questionnaire`}
        tcpaText={service.tcpaText}
        requiredMessage={REQUIRED_FIELD}
        renderAddress={renderAddress}
        trust={<SubmitTrust />}
      />
      {/* A visitor just told we cannot help is not invited to call. */}
      {questionnaire.disqualifiedBy ? null : <CallNowAside service={service} pixelId={config.pixelId} />}
    </div>
  )
}

/** "Prefer to talk now?" with the number while the call centre answers, its hours otherwise. */
function CallNowAside({ service, pixelId }: { service: ServiceConfig; pixelId: string }) {
  const centre = useCallCentre(service.callHours)
  if (!centre || !service.callHours) return null
  return (
    <aside aria-label="Talk to an agent" className="mt-6 rounded-xl bg-brand-50 p-4 text-center">
      {centre.open ? (
        <>
          {service.phoneCallToAction && <p className="font-semibold text-brand-900">{service.phoneCallToAction}</p>}
          <p className="mt-1 text-sm text-slate-700">Prefer to talk now? Call</p>
          <PhoneLink phoneNumber={service.ringbaPhoneNumber} pixelId={pixelId} className="mt-1 text-xl" service={service} />
        </>
      ) : (
        <CallCentreClosed hours={service.callHours} centre={centre} />
      )}
    </aside>
  )
}
