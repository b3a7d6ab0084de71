import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { useCatalogState } from '../lib/catalog-context'
import { paths } from '../lib/paths'
import { StaticPage } from './static-page'

export const TERMS_UPDATED = 'November 23rd 2026'

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 pt-10">
      <h2 id={`${id}-title`} className="text-2xl font-bold text-brand-900">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  )
}

/** /terms: the Terms of Use a visitor accepts by using the site and its request forms. */
export default function TermsPage() {
  const state = useCatalogState()
  const brand = state.status === 'ready' ? state.catalog.config.brandName : 'ServiceMatch'
  const link = 'text-brand-700 underline underline-offset-2'
  return (
    <StaticPage title="Terms of Use" lead={`Last updated: ${TERMS_UPDATED}`}>
      <div className="mx-auto max-w-3xl">
        <p className="text-slate-700">
          These terms govern your use of the {brand} website. By using the site or sending a request through
          it, you agree to them. If you do not agree, please do not use the site.
        </p>

        <Section id="our-service" title="What We Do">
          <p>
            {brand} is a free service that matches consumers with independent local professionals, lenders,
            insurers and attorneys. We are not a provider of any of these services, we do not endorse or
            guarantee any provider, and we are not a party to any agreement you make with one. Services are
            provided by independent third parties, not by {brand}.
          </p>
          <p>
            Nothing on the site is legal, financial, insurance or medical advice. A match is not an offer of
            credit, coverage or representation; each provider decides on its own terms whether to work with you.
          </p>
        </Section>

        <Section id="your-request" title="Your Request">
          <p>
            You must be 18 or older and a resident of the United States to send a request. The information you
            give must be true, current and your own: do not submit a request for someone else or with another
            person’s phone number or e-mail address.
          </p>
          <p>
            When you tick the consent box and submit a request, you agree to be contacted as the consent text
            next to the box describes, by the providers we match you with and by our{' '}
            <Link to={paths.marketingPartners} className={link}>marketing partners</Link>. Consent is not a
            condition of any purchase, and you may withdraw it at any time by replying STOP to a text message or
            by contacting us.
          </p>
        </Section>

        <Section id="privacy" title="Your Information">
          <p>
            How we collect, use, share and protect your information, and the rights you have over it, are set
            out in our <Link to={paths.privacyPolicy} className={link}>Privacy Policy</Link>, which forms part
            of these terms.
          </p>
        </Section>

        <Section id="acceptable-use" title="Acceptable Use">
          <p>
            Do not use the site to send false or automated requests, to interfere with its operation, to copy
            its content or data in bulk, or for any unlawful purpose. We may refuse or remove any request, and
            limit how often requests are accepted from one connection, to keep the service reliable for everyone.
          </p>
        </Section>

        <Section id="content" title="Content and Trademarks">
          <p>
            The site’s text, illustrations and design belong to {brand} or its licensors. Reviews and stories
            shown on the site reflect individual experiences; your results may differ.
          </p>
        </Section>

        <Section id="liability" title="Disclaimers and Limits of Liability">
          <p>
            The site is provided “as is” and “as available”. To the fullest extent the law allows, {brand}
            disclaims all warranties, and is not liable for the acts or omissions of any provider, for any
            indirect or consequential loss, or for any amount greater than what you paid us to use the site,
            which is nothing.
          </p>
        </Section>

        <Section id="changes" title="Changes to These Terms">
          <p>
            We may update these terms; the date at the top shows the latest version. Continuing to use the site
            after a change means you accept the updated terms.
          </p>
        </Section>

        <Section id="contact" title="Contact Us">
          <p>
            Questions about these terms:{' '}
            <a href="mailto:privacy@servicematch.example" className={link}>privacy@servicematch.example</a>.
          </p>
        </Section>
      </div>
    </StaticPage>
  )
}
