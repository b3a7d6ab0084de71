import { useEffect, useRef } from 'react'

/** The in-page "We're sorry..." screen shown after a disqualifying answer (spec section 4). */
export function DisqualifiedPanel({ option, onBack }: { option: string; onBack: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div role="status" className="py-6 text-center">
      <h2 ref={heading} tabIndex={-1} className="text-2xl font-bold text-brand-900 focus:outline-none">
        We're sorry...
      </h2>
      <p className="mt-4 text-base text-slate-700">
        Based on your selection of "{option}" to the previous question, we don't have any providers who are able to
        assist you at this time. Please contact a local provider for more information.
      </p>
      <button
        type="button"
        onClick={onBack}
        className="mt-6 rounded-lg border border-brand-600 px-6 py-3 font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        Go Back
      </button>
    </div>
  )
}
