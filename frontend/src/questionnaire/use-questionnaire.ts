// The questionnaire engine both flows share (spec sections 4 and 5): steps, answers, checks,
// disqualification and submit state. Each flow passes its policy: which checks run, what a
// problem does, and how the answers are sent.
import { useEffect, useMemo, useRef, useState, type FormEvent, type RefObject } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { sendServiceEvent, useFunnelViews, type FunnelService } from '../lib/funnel-events'
import type { FieldDefinition } from '../lib/types'
import { scrollToElement } from './field-focus'
import {
  advancesOnChoice, fieldsOnStep, furthestReachableStep, isDisqualifying, missingRequired, stepNumbers, type FormValues,
} from './steps'
import { answerContradictions, localErrors, remoteErrors, type FieldErrors } from './validation'

// The step on show lives in the history entry's state, so the browser's Back and Forward move
// between steps. Only its index goes there: the answers stay in memory, and the URL (with its
// subid1 and other parameters) is left as it is (docs/funnel.md).
export const STEP_STATE_KEY = 'questionnaireStep'

function stepInState(state: unknown): number {
  const step = (state as Record<string, unknown> | null)?.[STEP_STATE_KEY]
  return typeof step === 'number' && Number.isInteger(step) && step > 0 ? step : 0
}

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
  const location = useLocation()
  const navigate = useNavigate()
  const requestedStep = stepInState(location.state)
  // A step asked for by an entry whose earlier answers are gone (a reload) or were emptied since
  // shows the first step still to answer.
  const stepIndex = Math.min(requestedStep, furthestReachableStep(fields, steps, values))
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
  // Every later step is a history entry of its own; going back returns to an earlier entry, so
  // Back and Forward keep to the order the visitor went through the steps.
  const showStep = (index: number) => {
    if (index === stepIndex) return
    const entry = { search: location.search, hash: location.hash }
    const state = { ...((location.state as object | null) ?? {}), [STEP_STATE_KEY]: index }
    if (index > stepIndex) navigate(entry, { state, replace: false })
    else if (requestedStep === stepIndex) navigate(index - stepIndex)
    else navigate(entry, { state, replace: true })
  }
  // The entry names a step that cannot show: make it name the step that does.
  useEffect(() => {
    if (requestedStep > stepIndex) {
      const state = { ...((location.state as object | null) ?? {}), [STEP_STATE_KEY]: stepIndex }
      navigate({ search: location.search, hash: location.hash }, { state, replace: true })
    }
  }, [requestedStep, stepIndex, location, navigate])
  // A new step starts at the top of the form, whether Next, Back or the browser brought it.
  const shownStep = useRef(stepIndex)
  useEffect(() => {
    if (shownStep.current === stepIndex) return
    shownStep.current = stepIndex
    scrollToElement(container.current, 16)
  }, [stepIndex, container])
  // An answer that ended the questionnaire is asked again when the visitor goes to another step.
  const disqualifiedOn = useRef<{ step: number; fieldId: string } | null>(null)
  useEffect(() => {
    const ended = disqualifiedOn.current
    if (!ended || ended.step === stepIndex) return
    disqualifiedOn.current = null
    setValues((current) => ({ ...current, [ended.fieldId]: '' }))
    setDisqualifiedBy(null)
  }, [stepIndex])
  // Fields whose message says they contradict another answer: changing either answer clears it.
  const contradicted = useRef<ReadonlySet<string>>(new Set())
  const setValue = (id: string, value: string) => {
    setValues((current) => ({ ...current, [id]: value }))
    const cleared = new Set([id, ...contradicted.current])
    contradicted.current = new Set()
    setErrors((current) => {
      if (!Object.keys(current).some((key) => cleared.has(key))) return current
      return Object.fromEntries(Object.entries(current).filter(([key]) => !cleared.has(key)))
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
      showStep(steps.indexOf(firstBad.step!))
      policy.onProblem?.(firstBad.id)
    },
  }

  const disqualify = (field: FieldDefinition, answer: string) => {
    sendServiceEvent('disqualified', funnel, { step: steps[stepIndex], field: field.id, answer })
    disqualifiedOn.current = { step: stepIndex, fieldId: field.id }
    setDisqualifiedBy(field)
  }

  async function advance(current: FormValues) {
    if (busyRef.current !== 'idle') return
    setAttempted((previous) => new Set([...previous, ...stepFields.filter((f) => f.required).map((f) => f.id)]))
    const missing = missingRequired(stepFields, current)
    if (missing.length > 0) return policy.onProblem?.(missing[0].id)
    const disqualifying = stepFields.find((field) => isDisqualifying(field, current[field.id] ?? ''))
    if (disqualifying) return disqualify(disqualifying, current[disqualifying.id] ?? '')
    // Answers that contradict an earlier one are asked about before any of them ends the questionnaire.
    const contradictions = answerContradictions(stepFields, fields, current)
    const local = { ...contradictions, ...localErrors(policy.localChecks(stepFields), current) }
    contradicted.current = new Set(Object.keys(contradictions).filter((id) => local[id] === contradictions[id]))
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
      disqualifiedOn.current = null
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
