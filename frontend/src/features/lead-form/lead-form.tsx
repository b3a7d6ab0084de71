import { useEffect, useMemo, useRef, type ReactNode } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { SubmitTrust } from '../../components/submit-trust'
import { useCatalogState } from '../../lib/catalog-context'
import { sendServiceEvent } from '../../lib/funnel-events'
import { paths } from '../../lib/paths'
import { readJson, removeKey, STORAGE_KEYS, type StoredAddress } from '../../lib/storage-keys'
import { collectClickData } from '../../lib/third-party/click'
import { waitForCertificate } from '../../lib/third-party/trustedform'
import type { CatalogData, ServiceConfig } from '../../lib/types'
import { captureUrlParams, storedBaseFields } from '../../lib/url-params'
import { useFieldAttention } from '../../questionnaire/field-focus'
import { useLeadSending } from '../../questionnaire/lead-sending'
import { REQUIRED_FIELD, SUBMIT_FAILED, tooManyRequests } from '../../questionnaire/messages'
import { QuestionnaireForm } from '../../questionnaire/questionnaire-form'
import { initialValues, mergeFields } from '../../questionnaire/steps'
import { useQuestionnaire, type QuestionnairePolicy } from '../../questionnaire/use-questionnaire'
import { formSignals } from './form-signals'
import { HoneypotField } from './honeypot-field'
import { buildLeadPayload, errorsByFieldId } from './payload'

interface LeadFormProps {
  service: ServiceConfig
  stateCode?: string
  // What step 1 shows above the questions: the page's headline and description. The page decides,
  // so a headline the page already shows elsewhere (the desktop hero) is not said twice.
  intro?: ReactNode
}

/** The multi-step lead form of spec section 4, for the service page and /form. */
export function LeadForm({ service, stateCode, intro }: LeadFormProps) {
  const catalogState = useCatalogState()
  if (catalogState.status === 'error') {
    return <p role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">The form could not be loaded: {catalogState.message}</p>
  }
  if (catalogState.status === 'loading') {
    return <div aria-busy="true" aria-label="Loading the form" className="h-96 animate-pulse rounded-2xl bg-slate-100" />
  }
  return <LeadFormSteps key={service.id} service={service} stateCode={stateCode} intro={intro} catalog={catalogState.catalog} />
}

/** The lead form's policy over the shared questionnaire: base fields merged in, every field of a
 * step checked, problems scrolled to and flashed, the answers sent to /api/submit-form, and a
 * refused or failed submission shown on the form. */
function LeadFormSteps({ service, stateCode, intro, catalog }: LeadFormProps & { catalog: CatalogData }) {
  const navigate = useNavigate()
  const location = useLocation()
  const config = catalog.config
  const fields = useMemo(() => mergeFields(service, catalog.site.baseFields), [service, catalog])
  const stateLabels = useMemo(
    () => Object.fromEntries(catalog.site.states.map((state) => [state.value, state.label])),
    [catalog],
  )
  const sending = useLeadSending(config)
  const container = useRef<HTMLDivElement>(null)
  const { flashing, attend } = useFieldAttention()
  // When the first step showed, and the field only bots fill: what the form reports with the answers.
  const startedAt = useRef<number | null>(null)
  const honeypot = useRef<HTMLInputElement>(null)
  useEffect(() => {
    startedAt.current = performance.now()
  }, [])

  const policy: QuestionnairePolicy = {
    localChecks: (stepFields) => stepFields,
    remoteChecks: (stepFields) => stepFields,
    stateLabels,
    onProblem: attend,
    async submit(values, { setBusy, setAlert, showFieldErrors }) {
      const ticket = await sending.ticket({ setBusy, setAlert })
      if (!ticket) return
      const trustedform = config.trustedformEnabled ? await waitForCertificate() : ''
      const signals = formSignals(startedAt.current ?? performance.now(), honeypot.current?.value ?? '')
      const payload = buildLeadPayload({
        service, fields, values, click: collectClickData(trustedform), formSignals: signals, ...ticket,
      })
      const result = await sending.send(payload, '/api/submit-form')
      if (result.ok) {
        sendServiceEvent('submitted', service)
        removeKey(STORAGE_KEYS.address)
        navigate(
          { pathname: paths.thankYou, search: location.search },
          {
            replace: true,
            state: { successMessage: service.successMessage, ...result.accepted },
          },
        )
        return
      }
      showFieldErrors(errorsByFieldId(fields, result.fields))
      setAlert(result.status === 429 ? tooManyRequests(result.retryAfterSeconds) : SUBMIT_FAILED)
      setBusy('idle')
    },
  }
  const questionnaire = useQuestionnaire({
    funnel: service,
    fields,
    policy,
    container,
    initial: () => {
      // Read the URL here too: the form may mount before the layout has stored this page's parameters.
      captureUrlParams(location.search)
      const prefills = [readJson<StoredAddress>(STORAGE_KEYS.address), storedBaseFields()]
      return initialValues(fields, prefills, stateCode, ['address2'])
    },
  })

  return (
    <div ref={container}>
      <QuestionnaireForm
        questionnaire={questionnaire}
        label={`${service.name} request form`}
        tcpaText={service.tcpaText}
        intro={intro}
        requiredMessage={REQUIRED_FIELD}
        flashing={flashing}
        optionLabels={(fieldId) => (fieldId === 'state' ? stateLabels : undefined)}
        trust={
          <>
            <SubmitTrust />
            {/* On the last step, inside the form, with the contact fields a bot fills. */}
            <HoneypotField inputRef={honeypot} />
          </>
        }
      />
    </div>
  )
}
