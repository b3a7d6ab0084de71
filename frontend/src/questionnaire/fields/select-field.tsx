import { controlClass, describedBy, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

/** A dropdown; the state field shows state names with "Select State" first (spec section 5). */
export function SelectField({
  field,
  value,
  onChange,
  error,
  attempted,
  disabled,
  optionLabels,
}: FieldProps & { optionLabels?: Record<string, string> }) {
  const prompt = field.id === 'state' ? 'Select State' : (field.placeholder ?? 'Select an option')
  return (
    <FieldShell field={field} error={error}>
      <select
        id={inputId(field)}
        name={field.id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete={field.autoComplete ?? undefined}
        required={field.required}
        disabled={disabled}
        className={controlClass(!!error || attempted)}
        {...describedBy(field, error)}
      >
        <option value="">{prompt}</option>
        {(field.options ?? []).map((option) => (
          <option key={option} value={option}>
            {optionLabels?.[option] ?? option}
          </option>
        ))}
      </select>
    </FieldShell>
  )
}
