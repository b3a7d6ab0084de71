import type { InputHTMLAttributes } from 'react'

/** A labelled input whose error line is announced as it appears. */
export function LabelledInput({
  id,
  label,
  hint,
  error,
  multiline = false,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  id: string
  label: string
  hint?: string
  error?: string
  multiline?: boolean
}) {
  const described = [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ')
  const classes =
    'w-full rounded-lg border border-slate-300 px-3 py-3 text-base text-slate-900 focus-visible:outline-2 ' +
    'focus-visible:outline-brand-600 aria-invalid:border-red-600'
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mb-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {multiline ? (
        <textarea
          id={id}
          rows={4}
          className={classes}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          value={input.value}
          onChange={input.onChange as never}
          maxLength={2000}
        />
      ) : (
        <input id={id} className={classes} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      )}
      <p id={`${id}-error`} aria-live="polite" className="mt-1 text-sm font-medium text-red-700">
        {error ?? ''}
      </p>
    </div>
  )
}
