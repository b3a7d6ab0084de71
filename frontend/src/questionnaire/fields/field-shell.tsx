import type { ReactNode } from 'react'
import type { FieldDefinition } from '../../lib/types'
import { errorId, inputId } from './field-props'

/** Label, control and the error line (announced as it appears) of one field. */
export function FieldShell({
  field,
  error,
  children,
  asGroup = false,
}: {
  field: FieldDefinition
  error?: string
  children: ReactNode
  asGroup?: boolean
}) {
  const label = (
    <>
      {field.label}
      {field.required || /optional/i.test(field.label) ? null : <span className="font-normal text-slate-500"> (optional)</span>}
    </>
  )
  const message = (
    <p id={errorId(field)} aria-live="polite" className="mt-1 min-h-0 text-sm font-medium text-red-700">
      {error ?? ''}
    </p>
  )
  if (asGroup) {
    return (
      <fieldset>
        <legend className="mb-3 text-lg font-semibold text-slate-900">{label}</legend>
        {children}
        {message}
      </fieldset>
    )
  }
  return (
    <div>
      <label htmlFor={inputId(field)} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      {children}
      {message}
    </div>
  )
}
