import { useRef } from 'react'
import { describedBy, type FieldProps } from './field-props'
import { FieldShell } from './field-shell'

const ARROW_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'])

/** Large tappable choices; picking one reports it so the form can move on at once. Arrow keys only
 * move the selection (a keyboard user walking the options must not be carried to the next step);
 * Space, Enter or a tap confirm it. */
export function RadioField({
  field,
  value,
  onChange,
  error,
  attempted,
  disabled,
  onChoice,
}: FieldProps & { onChoice: (value: string) => void }) {
  const movedByArrow = useRef(false)
  return (
    <FieldShell field={field} error={error} asGroup>
      <div
        role="radiogroup"
        aria-label={field.label}
        aria-required={field.required}
        className={`grid gap-2 rounded-lg ${attempted || error ? 'ring-2 ring-red-500 ring-offset-2' : ''}`}
        {...describedBy(field, error)}
      >
        {(field.options ?? []).map((option) => {
          const checked = value === option
          return (
            <label
              key={option}
              className={[
                'flex cursor-pointer items-center gap-3 rounded-lg border px-4 py-3 text-base',
                'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600',
                checked ? 'border-brand-600 bg-brand-50 font-semibold text-brand-900' : 'border-slate-300 hover:border-brand-600',
              ].join(' ')}
            >
              <input
                type="radio"
                name={field.id}
                value={option}
                checked={checked}
                disabled={disabled}
                onKeyDown={(event) => {
                  movedByArrow.current = ARROW_KEYS.has(event.key)
                  if (event.key === 'Enter' && checked) {
                    // Confirm the choice the arrows landed on, instead of submitting the form around it.
                    event.preventDefault()
                    onChoice(option)
                  }
                }}
                onClick={() => {
                  // After Back the previous answer is still checked, so tapping it again changes
                  // nothing and fires no change event; the tap still confirms it.
                  if (checked && !movedByArrow.current) onChoice(option)
                }}
                onChange={() => {
                  onChange(option)
                  if (!movedByArrow.current) onChoice(option)
                  movedByArrow.current = false
                }}
                className="size-5 shrink-0 accent-brand-600"
              />
              {option}
            </label>
          )
        })}
      </div>
    </FieldShell>
  )
}
