import { useState, type HTMLAttributes } from 'react'
import { suggestEmail } from '../email-typo'
import { controlClass, describedBy, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

type InputMode = HTMLAttributes<HTMLInputElement>['inputMode']

/** Plain text and email inputs. The pattern is checked by the form, not the browser, so messages match the spec.
 * An e-mail whose domain looks mistyped gets a one-tap correction once the visitor leaves the field. */
export function TextField({ field, value, onChange, error, attempted, disabled }: FieldProps) {
  const isEmail = field.type === 'email'
  const [suggestion, setSuggestion] = useState<string | null>(null)
  return (
    <FieldShell field={field} error={error}>
      <input
        id={inputId(field)}
        name={field.id}
        type={isEmail ? 'email' : 'text'}
        value={value}
        onChange={(event) => {
          setSuggestion(null)
          onChange(event.target.value)
        }}
        onBlur={isEmail ? () => setSuggestion(suggestEmail(value)) : undefined}
        placeholder={field.placeholder ?? undefined}
        autoComplete={field.autoComplete ?? undefined}
        inputMode={(field.inputMode ?? undefined) as InputMode}
        maxLength={field.maxLength ?? undefined}
        required={field.required}
        disabled={disabled}
        className={controlClass(!!error || attempted)}
        {...describedBy(field, error)}
      />
      {isEmail && suggestion && suggestion !== value ? (
        <button
          type="button"
          onClick={() => {
            onChange(suggestion)
            setSuggestion(null)
          }}
          className="mt-2 inline-flex min-h-11 items-center rounded-md px-1 text-left text-sm text-brand-700 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Did you mean {suggestion}?
        </button>
      ) : null}
    </FieldShell>
  )
}
