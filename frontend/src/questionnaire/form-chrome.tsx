import { useEffect, useRef } from 'react'

// The progress line and the Back / Next / Submit buttons shared by the lead form and the call flow.

export function StepProgress({ current, total }: { current: number; total: number }) {
  const progress = useRef<HTMLParagraphElement>(null)
  const shownStep = useRef(current)
  // The control that moved the form on is gone with its step: put focus at the top of the new step,
  // so keyboard and screen-reader users carry on from there instead of from the top of the page.
  useEffect(() => {
    if (shownStep.current === current) return
    shownStep.current = current
    progress.current?.focus({ preventScroll: true })
  }, [current])
  return (
    <div>
      <p ref={progress} tabIndex={-1} className="text-sm font-semibold text-brand-700 focus:outline-none" aria-live="polite">
        Step {current} of {total}
      </p>
      {/* An SVG width, not a style attribute: the page is rendered to HTML ahead, and the
          Content-Security-Policy refuses style="" in markup. */}
      <svg className="mt-2 block h-2 w-full overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
        <rect className="fill-brand-600 transition-all" height="100%" rx="4" width={`${(current / total) * 100}%`} />
      </svg>
    </div>
  )
}

export function FormButtons({
  onBack,
  isLastStep,
  busy,
  submitBlocked,
}: {
  onBack?: () => void
  isLastStep: boolean
  busy: 'idle' | 'checking' | 'submitting'
  submitBlocked: boolean
}) {
  const submitting = busy === 'submitting'
  const label = submitting ? 'Submitting...' : isLastStep ? 'Submit' : 'Next'
  const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600'
  return (
    <div className="flex gap-3">
      {onBack && (
        <button
          type="button"
          onClick={onBack}
          disabled={busy !== 'idle'}
          className={`rounded-lg border border-slate-300 px-5 py-3 font-semibold text-slate-700 hover:bg-slate-50 disabled:opacity-50 ${focusRing}`}
        >
          Back
        </button>
      )}
      <button
        type="submit"
        disabled={busy !== 'idle' || submitBlocked}
        aria-busy={busy !== 'idle'}
        className={`flex-1 rounded-lg bg-accent-500 px-5 py-3 text-lg font-bold text-white shadow hover:bg-accent-600 disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`}
      >
        {label}
      </button>
    </div>
  )
}
