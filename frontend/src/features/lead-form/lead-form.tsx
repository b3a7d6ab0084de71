import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { paths } from '../../app/routes'
import { useCatalogState } from '../../lib/catalog-context'
import { readJson, removeKey, STORAGE_KEYS, type StoredAddress } from '../../lib/storage-keys'
import { collectClickData } from '../../lib/third-party/click'
import { getRecaptchaToken, preloadRecaptcha } from '../../lib/third-party/recaptcha'
import { loadTrustedForm, waitForCertificate } from '../../lib/third-party/trustedform'
import type { CatalogData, FieldDefinition, ServiceConfig } from '../../lib/types'
import { captureUrlParams, storedBaseFields } from '../../lib/url-params'
import { ConsentBlock } from './consent'
import { DisqualifiedPanel } from './disqualified-panel'
import { fieldWrapperId, scrollToElement, useFieldAttention } from './field-focus'
import { FieldInput } from './fields/field-input'
import { FormButtons, StepProgress } from './form-chrome'
import { RECAPTCHA_FAILED, REQUIRED_FIELD, SUBMIT_FAILED } from './messages'
import { buildLeadPayload, errorsByFieldId } from './payload'
import {
  advancesOnChoice, fieldsOnStep, initialValues, isBlank, isDisqualifying, mergeFields, missingRequired,
  stepNumbers, type FormValues,
} from './steps'
import { newRequestId, submitLead } from './submit'
import { localErrors, remoteErrors, type FieldErrors } from './validation'

type Busy = 'idle' | 'checking' | 'submitting'

/** The multi-step lead form of spec section 4, for the service page and /form. */
export function LeadForm({ service, stateCode }: { service: ServiceConfig; stateCode?: string }) {
  const catalogState = useCatalogState()
  if (catalogState.status === 'error') {
    return <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">The form could not be loaded: {catalogState.message}</p>
  }
  if (catalogState.status === 'loading') {
    return <div aria-busy="true" aria-label="Loading the form" className="h-96 animate-pulse rounded-2xl bg-slate-100" />
  }
  return <LeadFormSteps key={service.id} service={service} stateCode={stateCode} catalog={catalogState.catalog} />
}

function LeadFormSteps({ service, stateCode, catalog }: { service: ServiceConfig; stateCode?: string; catalog: CatalogData }) {
  const navigate = useNavigate()
  const location = useLocation()
  const config = catalog.config
  const fields = useMemo(() => mergeFields(service, catalog.site.baseFields), [service, catalog])
  const steps = useMemo(() => stepNumbers(fields), [fields])
  const stateLabels = useMemo(
    () => Object.fromEntries(catalog.site.states.map((state) => [state.value, state.label])),
    [catalog],
  )
  const [values, setValues] = useState<FormValues>(() => {
    // Read the URL here too: the form may mount before the layout has stored this page's parameters.
    captureUrlParams(location.search)
    const prefills = [readJson<StoredAddress>(STORAGE_KEYS.address), storedBaseFields()]
    return initialValues(fields, prefills, stateCode, ['address2'])
  })
  const [stepIndex, setStepIndex] = useState(0)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [attempted, setAttempted] = useState<ReadonlySet<string>>(new Set())
  const [disqualifiedBy, setDisqualifiedBy] = useState<FieldDefinition | null>(null)
  const [consent, setConsent] = useState(false)
  const [busy, setBusy] = useState<Busy>('idle')
  const [alertMessage, setAlertMessage] = useState<string | null>(null)
  const busyRef = useRef<Busy>('idle')
  const requestId = useRef(newRequestId())
  const container = useRef<HTMLElement>(null)
  const { flashing, attend } = useFieldAttention()

  useEffect(() => {
    if (config.trustedformEnabled) loadTrustedForm()
    if (config.recaptchaSiteKey) preloadRecaptcha(config.recaptchaSiteKey)
  }, [config.trustedformEnabled, config.recaptchaSiteKey])

  const step = steps[stepIndex]
  const stepFields = fieldsOnStep(fields, step)
  const isLastStep = stepIndex === steps.length - 1

  const setBusyState = (next: Busy) => {
    busyRef.current = next
    setBusy(next)
  }
  const showStep = (index: number) => {
    setStepIndex(index)
    scrollToElement(container.current, 16)
  }
  const setValue = (id: string, value: string) => {
    setValues((current) => ({ ...current, [id]: value }))
    setErrors((current) => {
      if (!(id in current)) return current
      const { [id]: _cleared, ...rest } = current
      return rest
    })
  }
  const firstInDisplayOrder = (problems: FieldErrors) => stepFields.find((field) => field.id in problems)?.id

  async function goNext(current: FormValues) {
    if (busyRef.current !== 'idle') return
    setAttempted((previous) => new Set([...previous, ...stepFields.filter((f) => f.required).map((f) => f.id)]))
    const missing = missingRequired(stepFields, current)
    if (missing.length > 0) return attend(missing[0].id)
    const disqualifying = stepFields.find((field) => isDisqualifying(field, current[field.id] ?? ''))
    if (disqualifying) return setDisqualifiedBy(disqualifying)
    const local = localErrors(stepFields, current)
    if (Object.keys(local).length > 0) {
      setErrors((previous) => ({ ...previous, ...local }))
      return attend(firstInDisplayOrder(local)!)
    }
    setBusyState('checking')
    const remote = await remoteErrors(stepFields, current)
    if (Object.keys(remote).length > 0) {
      setBusyState('idle')
      setErrors((previous) => ({ ...previous, ...remote }))
      return attend(firstInDisplayOrder(remote)!)
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
    const trustedform = config.trustedformEnabled ? await waitForCertificate() : ''
    const payload = buildLeadPayload({
      service, fields, values: current, click: collectClickData(trustedform), requestId: requestId.current, recaptchaToken,
    })
    const result = await submitLead(payload)
    if (result.ok) {
      removeKey(STORAGE_KEYS.address)
      navigate(
        { pathname: paths.thankYou, search: location.search },
        { replace: true, state: { successMessage: service.successMessage } },
      )
      return
    }
    // A refused request will be corrected and sent again as a new request; a failed one may be retried as is.
    if (result.status >= 400 && result.status < 500) requestId.current = newRequestId()
    const fieldErrors = errorsByFieldId(fields, result.fields)
    const firstBad = fields.find((field) => field.id in fieldErrors)
    if (firstBad) {
      setErrors(fieldErrors)
      setStepIndex(steps.indexOf(firstBad.step!))
      attend(firstBad.id)
    }
    setAlertMessage(SUBMIT_FAILED)
    setBusyState('idle')
  }

  const choose = (field: FieldDefinition, option: string) => {
    const next = { ...values, [field.id]: option }
    if (isDisqualifying(field, option)) return setDisqualifiedBy(field)
    if (advancesOnChoice(stepIndex, steps.length)) void goNext(next)
  }
  const leaveDisqualified = () => {
    // Clear the answer so the visitor chooses again instead of carrying it forward.
    if (disqualifiedBy) setValue(disqualifiedBy.id, '')
    setDisqualifiedBy(null)
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (isLastStep && !consent) return
    void goNext(values)
  }

  return (
    <section ref={container} aria-label={`${service.name} request form`} className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-200 sm:p-6">
      {disqualifiedBy ? (
        <DisqualifiedPanel option={values[disqualifiedBy.id] ?? ''} onBack={leaveDisqualified} />
      ) : (
        <form noValidate onSubmit={onSubmit} className="space-y-5">
          {stepIndex === 0 && (
            <header>
              <h2 className="text-xl font-bold text-brand-900 sm:text-2xl">{service.title}</h2>
              <p className="mt-2 text-sm text-slate-600">{service.description}</p>
            </header>
          )}
          <StepProgress current={stepIndex + 1} total={steps.length} />
          <div className="grid grid-cols-2 gap-x-3 gap-y-4">
            {stepFields.map((field) => {
              const leftEmpty = attempted.has(field.id) && field.required && isBlank(values[field.id])
              return (
                <div
                  key={field.id}
                  id={fieldWrapperId(field.id)}
                  className={[
                    field.width === 'half' ? 'col-span-1' : 'col-span-2',
                    field.type === 'hidden' ? 'hidden' : '',
                    'rounded-lg transition-colors duration-300',
                    flashing === field.id ? 'bg-amber-100 outline-2 outline-offset-4 outline-amber-400' : '',
                  ].join(' ')}
                >
                  <FieldInput
                    field={field}
                    value={values[field.id] ?? ''}
                    onChange={(value) => setValue(field.id, value)}
                    onChoice={(option) => choose(field, option)}
                    error={errors[field.id] ?? (leftEmpty ? REQUIRED_FIELD : undefined)}
                    attempted={leftEmpty}
                    disabled={busy === 'submitting'}
                    optionLabels={field.id === 'state' ? stateLabels : undefined}
                  />
                </div>
              )
            })}
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
            onBack={stepIndex > 0 ? () => showStep(stepIndex - 1) : undefined}
            isLastStep={isLastStep}
            busy={busy}
            submitBlocked={isLastStep && !consent}
          />
        </form>
      )}
    </section>
  )
}
