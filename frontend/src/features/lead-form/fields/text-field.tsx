import type { HTMLAttributes } from 'react'
import { controlClass, describedBy, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

type InputMode = HTMLAttributes<HTMLInputElement>['inputMode']

/** Plain text and email inputs. The pattern is checked by the form, not the browser, so messages match the spec. */
export function TextField({ field, value, onChange, error, attempted, disabled }: FieldProps) {
  return (
    <FieldShell field={field} error={error}>
      <input
        id={inputId(field)}
        name={field.id}
        type={field.type === 'email' ? 'email' : 'text'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={field.placeholder ?? undefined}
        autoComplete={field.autoComplete ?? undefined}
        inputMode={(field.inputMode ?? undefined) as InputMode}
        maxLength={field.maxLength ?? undefined}
        required={field.required}
        disabled={disabled}
        className={controlClass(!!error || attempted)}
        {...describedBy(field, error)}
      />
    </FieldShell>
  )
}
