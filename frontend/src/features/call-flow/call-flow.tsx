import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { paths } from '../../app/routes'
import { collectClickData } from '../../lib/third-party/click'
import { getRecaptchaToken, preloadRecaptcha } from '../../lib/third-party/recaptcha'
import { loadTrustedForm, readCertificateUrl } from '../../lib/third-party/trustedform'
import type { CatalogData, FieldDefinition, ServiceConfig } from '../../lib/types'
import { ConsentBlock } from '../lead-form/consent'
import { DisqualifiedPanel } from '../lead-form/disqualified-panel'
import { fieldWrapperId, scrollToElement } from '../lead-form/field-focus'
import type { FieldProps } from '../lead-form/fields/field-props'
import { FieldInput } from '../lead-form/fields/field-input'
import { FormButtons, StepProgress } from '../lead-form/form-chrome'
import { RECAPTCHA_FAILED } from '../lead-form/messages'
import { fieldsOnStep, initialValues, isBlank, isDisqualifying, missingRequired, stepNumbers, type FormValues } from '../lead-form/steps'
import { newRequestId, postJson } from '../lead-form/submit'
import { firstContactFields, localErrors, remoteErrors, type FieldErrors } from '../lead-form/validation'
import { ageDisqualification, buildCallPayload, callFlowFields, previousStepIndex } from './call-steps'

type Busy = 'idle' | 'checking' | 'submitting'

/** The call-flow questionnaire of spec sections 2 and 4; ends on /call-thanks with the number to call. */
export function CallFlow({
  service,
  catalog,
  initialAddress,
  renderAddress,
}: {
  service: ServiceConfig
  catalog: CatalogData
  initialAddress?: string
  renderAddress?: (props: FieldProps) => React.ReactNode
}) {
  const navigate = useNavigate()
  const config = catalog.config
  const fields = useMemo(() => callFlowFields(service), [service])
  const steps = useMemo(() => stepNumbers(fields), [fields])
  const [values, setValues] = useState<FormValues>(() => {
    const address = fields.find((field) => field.type === 'address')
    return initialValues(fields, [address && initialAddress ? { [address.id]: initialAddress } : null])
  })
  const [stepIndex, setStepIndex] = useState(0)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [attempted, setAttempted] = useState(false)
  const [disqualifiedBy, setDisqualifiedBy] = useState<FieldDefinition | null>(null)
  const [consent, setConsent] = useState(false)
  const [busy, setBusy] = useState<Busy>('idle')
  const [alertMessage, setAlertMessage] = useState<string | null>(null)
  const busyRef = useRef<Busy>('idle')
  const container = useRef<HTMLElement>(null)

  useEffect(() => {
    if (config.trustedformEnabled) loadTrustedForm()
    if (config.recaptchaSiteKey) preloadRecaptcha(config.recaptchaSiteKey)
  }, [config.trustedformEnabled, config.recaptchaSiteKey])

  const stepFields = fieldsOnStep(fields, steps[stepIndex])
  const isLastStep = stepIndex === steps.length - 1
  const setBusyState = (next: Busy) => {
    busyRef.current = next
    setBusy(next)
  }
  const showStep = (index: number) => {
    setAttempted(false)
    setStepIndex(index)
    scrollToElement(container.current, 16)
  }
  const setValue = (id: string, value: string) => {
    setValues((current) => ({ ...current, [id]: value }))
    setErrors(({ [id]: _cleared, ...rest }) => rest)
  }

  async function advance(current: FormValues) {
    if (busyRef.current !== 'idle') return
    // Spec section 5: in the call flow a missing answer only stops the step (the ring shows it).
    setAttempted(true)
    if (missingRequired(stepFields, current).length > 0) return
    const disqualifying = stepFields.find((field) => isDisqualifying(field, current[field.id] ?? ''))
    if (disqualifying) return setDisqualifiedBy(disqualifying)
    const tooYoungOrOld = ageDisqualification(stepFields, current)
    if (tooYoungOrOld) return navigate(paths.disqualified, { replace: true, state: tooYoungOrOld })
    const contactFields = firstContactFields(stepFields)
    const local = localErrors(contactFields, current)
    if (Object.keys(local).length > 0) return setErrors((previous) => ({ ...previous, ...local }))
    setBusyState('checking')
    const remote = await remoteErrors(contactFields, current)
    if (Object.keys(remote).length > 0) {
      setBusyState('idle')
      return setErrors((previous) => ({ ...previous, ...remote }))
    }
    if (!isLastStep) {
      setBusyState('idle')
      return showStep(stepIndex + 1)
    }
    await submit(current)
  }

  async function submit(current: FormValues) {
    setBusyState('submitting')
    setAlertMessage(null)
    let recaptchaToken: string | undefined
    if (config.recaptchaSiteKey) {
      const token = await getRecaptchaToken(config.recaptchaSiteKey)
      if (!token) {
        setAlertMessage(RECAPTCHA_FAILED)
        return setBusyState('idle')
      }
      recaptchaToken = token
    }
    const payload = buildCallPayload({
      service, fields, values: current, click: collectClickData(readCertificateUrl()), requestId: newRequestId(), recaptchaToken,
    })
    try {
      const response = await postJson('/api/call-submit', payload)
      if (!response.ok && response.status !== 202) console.error('Failed to submit form', response.status)
    } catch (error) {
      // Spec section 8: the visitor still gets the number to call; the failure is only logged.
      console.error('Failed to submit form', error)
    }
    navigate(paths.callThanks, {
      state: {
        phoneNumber: service.ringbaPhoneNumber,
        callToAction: service.phoneCallToAction,
        jsid: service.ringbaJSid,
        service: service.id,
      },
    })
  }

  const choose = (field: FieldDefinition, option: string) => {
    const next = { ...values, [field.id]: option }
    if (isDisqualifying(field, option)) return setDisqualifiedBy(field)
    if (!isLastStep) void advance(next)
  }
  const leaveDisqualified = () => {
    if (disqualifiedBy) setValue(disqualifiedBy.id, '')
    setDisqualifiedBy(null)
    showStep(previousStepIndex(stepIndex))
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (isLastStep && !consent) return
    void advance(values)
  }

  return (
    <section ref={container} aria-label={`${service.name} questionnaire`} className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-200 sm:p-6">
      {disqualifiedBy ? (
        <DisqualifiedPanel option={values[disqualifiedBy.id] ?? ''} onBack={leaveDisqualified} />
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-5">
          <StepProgress current={stepIndex + 1} total={steps.length} />
          <div className="grid grid-cols-2 gap-x-3 gap-y-4">
            {stepFields.map((field) => (
              <div
                key={field.id}
                id={fieldWrapperId(field.id)}
                className={`${field.width === 'half' ? 'col-span-1' : 'col-span-2'} ${field.type === 'hidden' ? 'hidden' : ''}`}
              >
                <FieldInput
                  field={field}
                  value={values[field.id] ?? ''}
                  onChange={(value) => setValue(field.id, value)}
                  onChoice={(option) => choose(field, option)}
                  error={errors[field.id]}
                  attempted={attempted && field.required && isBlank(values[field.id])}
                  disabled={busy === 'submitting'}
                  renderAddress={renderAddress}
                />
              </div>
            ))}
          </div>
          {isLastStep && (
            <ConsentBlock text={service.tcpaText} checked={consent} onChange={setConsent} disabled={busy === 'submitting'} />
          )}
          {alertMessage && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
              {alertMessage}
            </p>
          )}
          <FormButtons
            onBack={stepIndex > 0 ? () => showStep(previousStepIndex(stepIndex)) : undefined}
            isLastStep={isLastStep}
            busy={busy}
            submitBlocked={isLastStep && !consent}
          />
        </form>
      )}
    </section>
  )
}
