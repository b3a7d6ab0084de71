import { joinDate, MONTHS, splitDate, yearChoices, type DateParts } from '../formats'
import { controlClass, describedBy, errorId, inputId, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

const DAYS = Array.from({ length: 31 }, (_, index) => String(index + 1).padStart(2, '0'))

/** Three dropdowns (Month, Day, Year) stored as yyyy-mm-dd. */
export function DateInput({ field, value, onChange, error, attempted, disabled }: FieldProps) {
  const parts = splitDate(value)
  const update = (change: Partial<DateParts>) => onChange(joinDate({ ...parts, ...change }))
  const invalid = !!error || attempted
  const baseId = inputId(field)
  const select = (part: keyof DateParts, label: string, options: Array<[string, string]>) => (
    <div>
      <label htmlFor={`${baseId}-${part}`} className="sr-only">
        {`${field.label} ${label}`}
      </label>
      <select
        id={`${baseId}-${part}`}
        value={parts[part]}
        onChange={(event) => update({ [part]: event.target.value })}
        disabled={disabled}
        required={field.required}
        autoComplete={field.autoComplete === 'bday' ? `bday-${part}` : undefined}
        className={controlClass(invalid)}
        {...describedBy(field, error)}
      >
        <option value="">{label}</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  )
  return (
    <FieldShell field={field} error={error} asGroup>
      <div id={baseId} className="grid grid-cols-[1.4fr_1fr_1.2fr] gap-2" aria-describedby={error ? errorId(field) : undefined}>
        {select('month', 'Month', MONTHS.map((name, index) => [String(index + 1).padStart(2, '0'), name]))}
        {select('day', 'Day', DAYS.map((day) => [day, day]))}
        {select('year', 'Year', yearChoices().map((year) => [year, year]))}
      </div>
    </FieldShell>
  )
}
