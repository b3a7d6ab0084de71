import { Link } from 'react-router'
import { RequestFlow, type RightOption } from '../features/privacy/request-flow'
import { StaticPage } from './static-page'

const CHOICES: RightOption[] = [
  { kind: 'stop', label: 'Stop calls, texts and e-mails', description: 'We withdraw your consent on every request you sent us and tell every company that received one.' },
  { kind: 'opt_out', label: 'Do not sell or share my personal information', description: 'None of your requests goes to our lead buyer from now on, and every company that already received one is told not to sell or share it.' },
]

export default function PrivacyChoicesPage() {
  return (
    <StaticPage
      title="Your Privacy Choices"
      lead="Stop being contacted about your requests, or opt out of the sale and sharing of your information."
    >
      <div className="grid gap-10 lg:grid-cols-[1fr_20rem]">
        <RequestFlow rights={CHOICES} allowPhone />
        <aside className="space-y-3 text-sm text-slate-700">
          <h2 className="text-base font-semibold text-slate-900">Good to know</h2>
          <p>Enter the e-mail address or the phone number you gave us. We send a one-time code to the e-mail address on file to confirm it is you.</p>
          <p>Every e-mail receipt we send also carries a one-click stop link.</p>
          <p>
            To see, correct or delete your data, go to <Link to="/privacy/requests" className="text-brand-700 underline">Your Privacy Rights</Link>.
          </p>
        </aside>
      </div>
    </StaticPage>
  )
}
