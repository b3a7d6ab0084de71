import type { FieldDefinition } from '../../lib/types'

export interface FieldProps {
  field: FieldDefinition
  value: string
  onChange: (value: string) => void
  error?: string
  // The visitor tried to move on with this required field empty: show a red ring.
  attempted: boolean
  disabled: boolean
}

export const inputId = (field: FieldDefinition) => `field-${field.id}`
export const errorId = (field: FieldDefinition) => `field-${field.id}-error`

/** Classes of a text-like control; 16 px text keeps phones from zooming in on focus. */
export function controlClass(invalid: boolean): string {
  return [
    'block min-h-12 w-full rounded-lg border bg-white px-3 py-3 text-base text-slate-900 shadow-sm',
    'placeholder:text-slate-400 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
    'disabled:bg-slate-100',
    invalid ? 'border-red-500 ring-2 ring-red-500' : 'border-slate-300',
  ].join(' ')
}

/** aria attributes tying a control to its error message. */
export function describedBy(field: FieldDefinition, error?: string) {
  return error
    ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field) }
    : { 'aria-invalid': false as const }
}
