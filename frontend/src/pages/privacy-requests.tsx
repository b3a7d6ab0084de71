import { Link } from 'react-router'
import { RequestFlow, type RightOption } from '../features/privacy/request-flow'
import { StaticPage } from './static-page'

const RIGHTS: RightOption[] = [
  { kind: 'access', label: 'See my data', description: 'Every request, answer, consent record and who received them, with a JSON download (twice a year).' },
  { kind: 'delete', label: 'Delete my data', description: 'We erase your personal data and tell everyone who received it to delete it too.' },
  { kind: 'correct', label: 'Correct my data', description: 'Tell us what is wrong; we record it and pass it on to everyone who received it.' },
  { kind: 'opt_out', label: 'Do not sell or share my personal information', description: 'None of your requests goes to our lead buyer from now on, and every company that already received one is told not to sell or share it.' },
]

export default function PrivacyRequestsPage() {
  return (
    <StaticPage
      title="Your Privacy Rights"
      lead="See, correct or delete the personal information we hold about you, or opt out of its sale and sharing."
    >
      <div className="grid gap-10 lg:grid-cols-[1fr_20rem]">
        <RequestFlow rights={RIGHTS} />
        <aside className="space-y-3 text-sm text-slate-700">
          <h2 className="text-base font-semibold text-slate-900">How it works</h2>
          <p>We send a one-time code to your e-mail address to confirm it is yours; nothing happens without it.</p>
          <p>Confirmed requests are carried out at once. Each request is recorded with the dates it was received, confirmed and closed.</p>
          <p>
            To stop calls and texts about a request, use <Link to="/privacy/choices" className="text-brand-700 underline">Your Privacy Choices</Link>.
            Read more in our <Link to="/privacy-policy" className="text-brand-700 underline">Privacy Policy</Link>.
          </p>
        </aside>
      </div>
    </StaticPage>
  )
}
