import type { ReactNode } from 'react'
import { ConsentBlock } from './consent'
import { DisqualifiedPanel } from './disqualified-panel'
import { fieldWrapperId } from './field-focus'
import type { FieldProps } from './fields/field-props'
import { FieldInput } from './fields/field-input'
import { FormButtons, StepProgress } from './form-chrome'
import { isBlank } from './steps'
import type { Questionnaire } from './use-questionnaire'

/** One questionnaire step as the visitor sees it: the step's fields, the consent on the last
 * step, the alert, Back and Next/Submit; or the disqualified panel. */
export function QuestionnaireForm({
  questionnaire: q,
  label,
  tcpaText,
  intro,
  requiredMessage,
  flashing,
  optionLabels,
  renderAddress,
  trust,
}: {
  questionnaire: Questionnaire
  label: string
  tcpaText: string
  // Shown above the first step only (spec section 4: only step 1 shows title and description).
  intro?: ReactNode
  // Under a required field left empty, with the red ring: the problem is told in words too.
  requiredMessage?: string
  // The field being brought to the visitor's attention.
  flashing?: string | null
  optionLabels?: (fieldId: string) => Record<string, string> | undefined
  renderAddress?: (props: FieldProps) => ReactNode
  // What the visitor weighs next to Submit (free, no obligation, encrypted).
  trust?: ReactNode
}) {
  const submitting = q.busy === 'submitting'
  return (
    <section aria-label={label} className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-200 sm:p-6">
      {q.disqualifiedBy ? (
        <DisqualifiedPanel option={q.values[q.disqualifiedBy.id] ?? ''} onBack={q.leaveDisqualified} />
      ) : (
        <form noValidate onSubmit={q.onSubmit} className="space-y-5">
          {q.stepIndex === 0 && intro ? <header>{intro}</header> : null}
          <StepProgress current={q.stepIndex + 1} total={q.steps.length} />
          <div className="grid grid-cols-2 gap-x-3 gap-y-4">
            {q.stepFields.map((field) => {
              const leftEmpty = q.attempted.has(field.id) && field.required && isBlank(q.values[field.id])
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
                    value={q.values[field.id] ?? ''}
                    onChange={(value) => q.setValue(field.id, value)}
                    onChoice={(option) => q.choose(field, option)}
                    error={q.errors[field.id] ?? (leftEmpty ? requiredMessage : undefined)}
                    attempted={leftEmpty}
                    disabled={submitting}
                    optionLabels={optionLabels?.(field.id)}
                    renderAddress={renderAddress}
                  />
                </div>
              )
            })}
          </div>
          {q.isLastStep && (
            <ConsentBlock text={tcpaText} checked={q.consent} onChange={q.setConsent} disabled={submitting} />
          )}
          {q.alertMessage && (
            <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
              {q.alertMessage}
            </p>
          )}
          <FormButtons
            onBack={q.goBack}
            isLastStep={q.isLastStep}
            busy={q.busy}
            submitBlocked={q.isLastStep && !q.consent}
          />
          {q.isLastStep ? trust : null}
        </form>
      )}
    </section>
  )
}
