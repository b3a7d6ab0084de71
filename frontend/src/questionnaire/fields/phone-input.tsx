import { formatPhone, phoneDigits } from '../formats'
import { controlClass, describedBy, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

/** Keeps at most 11 digits (a leading 1 allowed) and shows +1 when the country code is typed. */
export function PhoneInput({ field, value, onChange, error, attempted, disabled }: FieldProps) {
  return (
    <FieldShell field={field} error={error}>
      <input
        id={inputId(field)}
        name={field.id}
        type="tel"
        value={formatPhone(phoneDigits(value))}
        onChange={(event) => onChange(phoneDigits(event.target.value))}
        placeholder={field.placeholder ?? undefined}
        autoComplete={field.autoComplete ?? 'tel'}
        inputMode="tel"
        maxLength={field.maxLength ?? 17}
        required={field.required}
        disabled={disabled}
        className={controlClass(!!error || attempted)}
        {...describedBy(field, error)}
      />
    </FieldShell>
  )
}
