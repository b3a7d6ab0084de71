import { controlClass, describedBy, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

export function TextareaField({ field, value, onChange, error, attempted, disabled }: FieldProps) {
  return (
    <FieldShell field={field} error={error}>
      <textarea
        id={inputId(field)}
        name={field.id}
        rows={4}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={field.placeholder ?? undefined}
        maxLength={field.maxLength ?? undefined}
        required={field.required}
        disabled={disabled}
        className={controlClass(!!error || attempted)}
        {...describedBy(field, error)}
      />
    </FieldShell>
  )
}
