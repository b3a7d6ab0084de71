import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { useCatalogState } from '../lib/catalog-context'
import { paths } from '../lib/paths'
import { PRIVACY_CATEGORIES } from './privacy-categories'
import { StaticPage } from './static-page'

const OPT_OUT_URL = 'https://optout.aboutads.info/'
const PRIVACY_EMAIL = 'privacy@servicematch.example'
// A rights request is an e-mail to the privacy contact until the site has its own request page.
const RIGHTS_REQUEST_MAIL = `mailto:${PRIVACY_EMAIL}?subject=${encodeURIComponent('Privacy rights request')}`

const SECTIONS = [
  { id: 'information-we-collect', title: 'Information We Collect' },
  { id: 'how-we-use-information', title: 'How We Use Your Information' },
  { id: 'sharing-and-sale', title: 'Sharing and Sale of Information' },
  { id: 'cookies', title: 'Cookies and Tracking' },
  { id: 'children', title: 'Children’s Privacy' },
  { id: 'california-rights', title: 'Your California Privacy Rights' },
  { id: 'ccpa', title: 'CCPA Provisions' },
  { id: 'nevada-rights', title: 'Your Nevada Privacy Rights' },
  { id: 'unsubscribe', title: 'Opting Out of Communications' },
  { id: 'retention', title: 'How Long We Keep Information' },
  { id: 'contact', title: 'Contact Us' },
]

function Section({ id, children }: { id: string; children: ReactNode }) {
  const title = SECTIONS.find((s) => s.id === id)?.title
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 pt-10">
      <h2 id={`${id}-title`} className="text-2xl font-bold text-brand-900">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  )
}

export default function PrivacyPolicyPage() {
  const state = useCatalogState()
  const brand = state.status === 'ready' ? state.catalog.config.brandName : 'ServiceMatch'
  return (
    <StaticPage title="Privacy Policy" lead="Last updated: April 29th 2024">
      <div className="mx-auto max-w-3xl">
        <p className="text-slate-700">
          This policy explains how {brand} (“we”, “us”) collects, uses, shares and sells personal information
          when you use this website, and the choices and rights you have. By using the site you agree to this policy.
        </p>
        <nav aria-labelledby="quick-links" className="mt-8 rounded-2xl bg-brand-50 p-6">
          <h2 id="quick-links" className="font-bold text-brand-900">Quick Links</h2>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2">
            {SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-brand-700 underline-offset-2 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <Section id="information-we-collect">
          <p>
            We collect information you give us in our forms: e-mail address, full name, phone number, mailing
            address, date of birth, gender, and, depending on the form, health or financial information. We also
            collect technical information such as your IP address, browser type and pages visited.
          </p>
          {/* Focusable, so keyboard users can scroll the table sideways on narrow screens. */}
          <div tabIndex={0} role="region" aria-label="Categories of personal information" className="overflow-x-auto focus-visible:outline-3 focus-visible:outline-brand-600">
            {/* On phones the examples sit under each category's name, so two columns fit 390 px. */}
            <table className="mt-4 w-full border-collapse text-left text-sm">
              <caption className="mb-2 text-left font-semibold text-slate-800">
                Categories of personal information
              </caption>
              <thead>
                <tr className="bg-slate-100">
                  <th scope="col" className="border border-slate-200 p-2">Category</th>
                  <th scope="col" className="hidden border border-slate-200 p-2 sm:table-cell">Examples</th>
                  <th scope="col" className="border border-slate-200 p-2">Collected</th>
                </tr>
              </thead>
              <tbody>
                {PRIVACY_CATEGORIES.map((category) => (
                  <tr key={category.letter}>
                    <th scope="row" className="border border-slate-200 p-2 font-semibold">
                      {category.letter}. {category.name}
                      <span className="mt-1 block font-normal text-slate-600 sm:hidden">{category.examples}</span>
                    </th>
                    <td className="hidden border border-slate-200 p-2 sm:table-cell">{category.examples}</td>
                    <td className="border border-slate-200 p-2 font-semibold">{category.collected ? 'YES' : 'NO'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>

        <Section id="how-we-use-information">
          <p>
            We use your information to match you with independent service providers, to let them and our marketing
            partners contact you by phone, text and e-mail as you consented, to verify and improve our services,
            to prevent fraud, and to meet legal obligations.
          </p>
        </Section>

        <Section id="sharing-and-sale">
          <p>
            The personal information you submit may be shared with or sold to third parties, including service
            providers, lenders, insurers, attorneys and marketing partners, who may use it to market their products
            and services to you. Services are provided by independent third parties, not by {brand}.
          </p>
        </Section>

        <Section id="cookies">
          <p>
            We and our partners use cookies, pixels and similar technologies to remember your choices, measure
            advertising and record consent. You can opt out of interest-based advertising at{' '}
            <a href={OPT_OUT_URL} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank">
              the industry opt-out page
            </a>
            . We honor the Global Privacy Control signal sent by your browser.
          </p>
        </Section>

        <Section id="children">
          <p>
            This site is not intended for anyone under 18 and we do not knowingly collect information from
            children. We do not sell the personal information of consumers we know to be under 16.
          </p>
        </Section>

        <Section id="california-rights">
          <p>
            If you are a California resident you may request access to the personal information we collected
            about you in the preceding 12 months, ask us to delete it, and opt out of its sale. You may make an
            access request no more than twice in a 12-month period. We will not discriminate against you for
            exercising these rights.
          </p>
          <p>
            To make a request, use{' '}
            <Link to={paths.privacyRequests} className="text-brand-700 underline">Your Privacy Rights</Link>: you
            choose to see, correct or delete your information or to opt out of its sale and sharing, and confirm
            your e-mail address with a one-time code. Confirmed requests are carried out at once; see your data
            there, with a download, or{' '}
            <a href={RIGHTS_REQUEST_MAIL} className="text-brand-700 underline">e-mail a rights request to {PRIVACY_EMAIL}</a>.
            We respond within 45 days at the latest. When you delete your information we tell every company that
            received it to delete it too, and we keep only the record that proves your consent (the consent text,
            when and where it was given, and a one-way fingerprint of your phone number), as the law requires. A
            Global Privacy Control signal from your browser is honoured as a request to opt out of sale and sharing.
          </p>
        </Section>

        <Section id="ccpa">
          <p>
            Under the California Consumer Privacy Act (CCPA) we disclose the categories of personal information
            collected (see the table above), the sources (you, your device and our partners), the business purposes
            for collecting it, and the categories of third parties with whom it is shared or sold. Requests must be
            verifiable: we will ask for information that matches what we hold before we act on a request. An
            authorized agent may make a request for you with your signed permission.
          </p>
        </Section>

        <Section id="nevada-rights">
          <p>
            Nevada residents may direct us not to sell covered information they have provided or may provide.
            Send your request to the address below; we respond within 30 days.
          </p>
        </Section>

        <Section id="unsubscribe">
          <p>
            You can opt out of text messages by replying STOP, and out of e-mail by using the unsubscribe link in
            any message. It may take up to 10 days for an e-mail unsubscribe to take effect, during which you may
            still receive messages.
          </p>
          <p>
            Every request you send us is confirmed by an e-mail receipt with a link that stops calls, texts and
            e-mails about it. Without the e-mail at hand, use{' '}
            <Link to={paths.privacyChoices} className="text-brand-700 underline">Your Privacy Choices</Link> with
            your e-mail address or phone number. A stop takes effect at once: we tell every company that received
            your request to stop contacting you, and send nothing more.
          </p>
        </Section>

        <Section id="retention">
          <p>
            We keep the personal information of a request (name, contact details, address and answers) for three
            years, then erase it. The record of your consent (the text you agreed to, when, from which page) is kept
            for five years, as telemarketing rules require, then deleted. Records of privacy requests are kept for
            24 months.
          </p>
        </Section>

        <Section id="contact">
          <p>
            Questions about this policy or your rights: <a href={`mailto:${PRIVACY_EMAIL}`} className="text-brand-700 underline">{PRIVACY_EMAIL}</a>.
          </p>
        </Section>
      </div>
    </StaticPage>
  )
}
