// The questionnaire engine both flows share (spec sections 4 and 5): steps, answers, checks,
// disqualification and submit state. Each flow passes its policy: which checks run, what a
// problem does, and how the answers are sent.
import { useMemo, useRef, useState, type FormEvent, type RefObject } from 'react'
import { sendServiceEvent, useFunnelViews, type FunnelService } from '../lib/funnel-events'
import type { FieldDefinition } from '../lib/types'
import { scrollToElement } from './field-focus'
import { advancesOnChoice, fieldsOnStep, isDisqualifying, missingRequired, stepNumbers, type FormValues } from './steps'
import { localErrors, remoteErrors, type FieldErrors } from './validation'

export type Busy = 'idle' | 'checking' | 'submitting'

/** What the engine offers a flow's submit: busy state, the alert, and server messages per field. */
export interface SubmitControls {
  setBusy: (busy: Busy) => void
  setAlert: (message: string | null) => void
  /** Show the server's messages on their fields and go to the step of the first one. */
  showFieldErrors: (errors: FieldErrors) => void
}

export interface QuestionnairePolicy {
  /** The fields of a step checked without the network (shapes, dates). */
  localChecks: (stepFields: FieldDefinition[]) => FieldDefinition[]
  /** The fields of a step whose e-mail or phone the server checks. */
  remoteChecks: (stepFields: FieldDefinition[]) => FieldDefinition[]
  /** State names by code, for a ZIP found in another state than the one chosen. */
  stateLabels?: Record<string, string>
  /** The first field with a problem, after a step did not pass (the lead form scrolls to it). */
  onProblem?: (fieldId: string) => void
  /** After the local checks pass: true stops here (the call flow's age rule leaves the page). */
  stopsBeforeRemote?: (stepFields: FieldDefinition[], values: FormValues) => boolean
  /** The step to show after Go Back on the disqualified panel. */
  stepAfterDisqualified?: (stepIndex: number) => number
  /** Every step passed: send the answers. */
  submit: (values: FormValues, controls: SubmitControls) => Promise<void>
}

export function useQuestionnaire({
  fields,
  initial,
  policy,
  container,
  funnel,
}: {
  fields: FieldDefinition[]
  initial: () => FormValues
  policy: QuestionnairePolicy
  container: RefObject<HTMLElement | null>
  // The service these answers are for, as the site's own funnel events name it.
  funnel: FunnelService
}) {
  const steps = useMemo(() => stepNumbers(fields), [fields])
  const [values, setValues] = useState<FormValues>(initial)
  const [stepIndex, setStepIndex] = useState(0)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [attempted, setAttempted] = useState<ReadonlySet<string>>(new Set())
  const [disqualifiedBy, setDisqualifiedBy] = useState<FieldDefinition | null>(null)
  const [consent, setConsent] = useState(false)
  const [busy, setBusyState] = useState<Busy>('idle')
  const [alertMessage, setAlert] = useState<string | null>(null)
  // The state of the moment, for a second tap that arrives before React re-renders.
  const busyRef = useRef<Busy>('idle')

  const stepFields = fieldsOnStep(fields, steps[stepIndex])
  const isLastStep = stepIndex === steps.length - 1
  useFunnelViews(funnel, steps[stepIndex])

  const setBusy = (next: Busy) => {
    busyRef.current = next
    setBusyState(next)
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
  const report = (problems: FieldErrors) => {
    setErrors((previous) => ({ ...previous, ...problems }))
    const first = firstInDisplayOrder(problems)
    if (first) policy.onProblem?.(first)
  }
  const controls: SubmitControls = {
    setBusy,
    setAlert,
    showFieldErrors: (problems) => {
      const firstBad = fields.find((field) => field.id in problems)
      if (!firstBad) return
      setErrors(problems)
      setStepIndex(steps.indexOf(firstBad.step!))
      policy.onProblem?.(firstBad.id)
    },
  }

  const disqualify = (field: FieldDefinition, answer: string) => {
    sendServiceEvent('disqualified', funnel, { step: steps[stepIndex], field: field.id, answer })
    setDisqualifiedBy(field)
  }

  async function advance(current: FormValues) {
    if (busyRef.current !== 'idle') return
    setAttempted((previous) => new Set([...previous, ...stepFields.filter((f) => f.required).map((f) => f.id)]))
    const missing = missingRequired(stepFields, current)
    if (missing.length > 0) return policy.onProblem?.(missing[0].id)
    const disqualifying = stepFields.find((field) => isDisqualifying(field, current[field.id] ?? ''))
    if (disqualifying) return disqualify(disqualifying, current[disqualifying.id] ?? '')
    const local = localErrors(policy.localChecks(stepFields), current)
    if (Object.keys(local).length > 0) return report(local)
    if (policy.stopsBeforeRemote?.(stepFields, current)) return
    setBusy('checking')
    const remote = await remoteErrors(policy.remoteChecks(stepFields), current, policy.stateLabels)
    if (Object.keys(remote).length > 0) {
      setBusy('idle')
      return report(remote)
    }
    sendServiceEvent('step_complete', funnel, { step: steps[stepIndex] })
    if (!isLastStep) {
      setBusy('idle')
      return showStep(stepIndex + 1)
    }
    setBusy('submitting')
    setAlert(null)
    await policy.submit(current, controls)
  }

  return {
    steps, stepIndex, stepFields, isLastStep, values, errors, attempted, disqualifiedBy, consent, setConsent,
    busy, alertMessage, setValue,
    /** A radio choice: records it, and moves on at once when a later step exists (spec section 4). */
    choose: (field: FieldDefinition, option: string) => {
      if (isDisqualifying(field, option)) return disqualify(field, option)
      if (advancesOnChoice(stepIndex, steps.length)) void advance({ ...values, [field.id]: option })
    },
    goBack: stepIndex > 0 ? () => showStep(stepIndex - 1) : undefined,
    leaveDisqualified: () => {
      // Clear the answer so the visitor chooses again instead of carrying it forward.
      if (disqualifiedBy) setValue(disqualifiedBy.id, '')
      setDisqualifiedBy(null)
      if (policy.stepAfterDisqualified) showStep(policy.stepAfterDisqualified(stepIndex))
    },
    onSubmit: (event: FormEvent) => {
      event.preventDefault()
      if (isLastStep && !consent) return
      void advance(values)
    },
  }
}

export type Questionnaire = ReturnType<typeof useQuestionnaire>
