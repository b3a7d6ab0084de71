import type { Ref } from 'react'

// A text field people never see or reach, which form-filling bots find and fill: the server's
// quality gate holds a lead whose honeypot is not empty (docs/quality.md). Hidden from sight
// (sr-only), from assistive technology (aria-hidden), from the keyboard (tabIndex -1) and from the
// browser's autofill (autoComplete off, a name no autofill category uses).
export const HONEYPOT_NAME = 'company_website'
const HONEYPOT_ID = 'lead-form-company-website'

export function HoneypotField({ inputRef }: { inputRef: Ref<HTMLInputElement> }) {
  return (
    <div aria-hidden="true" className="sr-only">
      <label htmlFor={HONEYPOT_ID}>Company website (leave this empty)</label>
      <input
        ref={inputRef}
        id={HONEYPOT_ID}
        name={HONEYPOT_NAME}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  )
}
