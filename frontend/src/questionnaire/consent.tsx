import { Link, useLocation } from 'react-router'
import { paths } from '../lib/paths'
import { usePrivacyControl } from '../lib/privacy-control'

const PARTNERS_PHRASE = /marketing partners/i

/** The consent checkbox with the service's consent text; "marketing partners" opens the partner list. */
export function ConsentBlock({
  text,
  checked,
  onChange,
  disabled,
}: {
  text: string
  checked: boolean
  onChange: (checked: boolean) => void
  disabled: boolean
}) {
  const location = useLocation()
  const gpc = usePrivacyControl()
  const partnersLink = (words: string) => (
    <Link
      to="/marketing-partners"
      state={{ backgroundLocation: location }}
      className="font-semibold text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {words}
    </Link>
  )
  const policyLink = (to: string, words: string) => (
    <a
      href={to}
      target="_blank"
      rel="noopener"
      className="font-semibold text-brand-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      {words}
    </a>
  )
  const match = PARTNERS_PHRASE.exec(text)
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex items-start gap-3">
        <input
          id="consent"
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-1 size-5 shrink-0 accent-brand-600"
        />
        <label htmlFor="consent" className="text-xs leading-relaxed text-slate-700">
          {match ? (
            <>
              {text.slice(0, match.index)}
              {partnersLink(match[0])}
              {text.slice(match.index + match[0].length)}
            </>
          ) : (
            text
          )}
        </label>
      </div>
      {match ? null : (
        <p className="mt-2 pl-8 text-xs text-slate-600">See our {partnersLink('marketing partners')}.</p>
      )}
      {/* A new tab, so reading the policy does not cost the visitor the answers given so far. */}
      <p className="mt-2 pl-8 text-xs text-slate-600">
        Read our {policyLink(paths.privacyPolicy, 'Privacy Policy')} and {policyLink(paths.terms, 'Terms of Use')}.
      </p>
      {gpc ? (
        <p className="mt-2 pl-8 text-xs font-semibold text-slate-700" data-testid="gpc-honoured">
          Your browser sends a Global Privacy Control signal: we honour it as your request to opt out of the sale
          and sharing of your information, so your request goes only to the matched providers.
        </p>
      ) : null}
    </div>
  )
}
