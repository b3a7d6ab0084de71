import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { formatPhone } from '../../lib/phone'
import { PATHS } from '../paths'
import { ReasonList, ScoreBadge } from '../quality/reason-list'
import { useOperator } from '../session'
import type { LeadDetail } from '../types'
import { useApi } from '../use-api'
import { Card, DeliveryCounts, ErrorNotice, formatTime, Loading, PageTitle, RevokedBadge, StatusBadge } from '../ui'
import { AuctionWaterfall } from './auction-waterfall'
import { DeliveryTimeline } from './delivery-timeline'

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-500">{term}</dt>
          <dd className="min-w-0 break-words">{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  )
}

const yesNo = (value: boolean | undefined) => (value ? 'Yes' : 'No')

export default function LeadPage() {
  const { id = '' } = useParams()
  const { isAdmin } = useOperator()
  const { data: lead, error, loading, reload } = useApi<LeadDetail>(`/leads/${encodeURIComponent(id)}`)
  return (
    <>
      <Link to={PATHS.leads} className="mb-3 inline-flex min-h-11 items-center gap-1 text-sm text-brand-700 underline">
        <ArrowLeft size={16} aria-hidden="true" /> All leads
      </Link>
      <ErrorNotice message={error} />
      {loading && !lead && <Loading />}
      {lead && (
        <>
          <PageTitle>Lead {lead.requestId}</PageTitle>
          <div className="grid gap-4 lg:grid-cols-2">
            <Card title="Lead">
              <Facts rows={[
                ['Reference', <span key="r" className="font-mono">{lead.reference}</span>],
                ['Received', formatTime(lead.createdAt)],
                ['Service', `${lead.service} (${lead.vertical})`],
                ['Source', lead.source],
                ['Status', <span key="s" className="inline-flex flex-wrap items-baseline gap-2">
                  <StatusBadge status={lead.status} />{lead.revoked && <RevokedBadge at={lead.revokedAt} />}
                </span>],
                ['Duplicate', yesNo(lead.isDuplicate)],
                ['Name', lead.name],
                ['E-mail', lead.email],
                ['Phone', formatPhone(lead.phone)],
                ['Location', `${lead.state} ${lead.zip}`],
              ]} />
            </Card>
            <Card title="Privacy">
              <Facts rows={[
                ['Do not sell or share', yesNo(lead.privacy.doNotSell)],
                ['Global Privacy Control', yesNo(lead.privacy.gpc)],
                ['Consent revoked', formatTime(lead.privacy.revokedAt)],
                ['Personal data deleted', formatTime(lead.privacy.deletedAt)],
              ]} />
            </Card>
            <Card title="Quality">
              <Facts rows={[
                ['Score', <ScoreBadge key="q" score={lead.qualityScore} />],
                ['Verdict', lead.qualityStatus ? <StatusBadge key="v" status={lead.qualityStatus} /> : 'Not judged yet'],
                ['Reasons', <ReasonList key="r" reasons={lead.qualityReasons} />],
                ...(lead.qualityReview ? [
                  [lead.qualityReview.decision === 'released' ? 'Released' : 'Rejected',
                    `${formatTime(lead.qualityReview.at)} by ${lead.qualityReview.by}`],
                  ['Note', lead.qualityReview.note],
                ] as [string, ReactNode][] : []),
              ]} />
              {lead.qualityStatus === 'held' && (
                <Link to={PATHS.held} className="mt-2 inline-flex min-h-11 items-center text-sm font-medium text-brand-700 underline">
                  Review held leads
                </Link>
              )}
            </Card>
            <Card title="Answers">
              <Facts rows={Object.entries(lead.answers)} />
            </Card>
            <Card title="Consent evidence">
              {lead.consent ? (
                <>
                  <Facts rows={[
                    ['Given at', formatTime(lead.consent.at)],
                    ['IP address', lead.consent.ip],
                    ['Browser', lead.consent.userAgent],
                    ['Page', lead.consent.pageUrl],
                    ['TrustedForm', lead.consent.trustedform],
                    ['GPC signal', yesNo(lead.consent.gpc)],
                    ['Partner list version', lead.consent.partnersVersion],
                    ['Text SHA-256', <code key="h" className="text-xs break-all">{lead.consent.textSha256}</code>],
                  ]} />
                  <blockquote className="mt-3 border-l-4 border-slate-200 pl-3 text-sm text-slate-700">{lead.consent.text}</blockquote>
                </>
              ) : <p className="text-sm text-slate-500">No consent record.</p>}
            </Card>
            <Card title="Auction" className="lg:col-span-2">
              <AuctionWaterfall steps={lead.auction ?? []} />
            </Card>
            <Card title="Deliveries" className="lg:col-span-2">
              <div className="mb-3">
                <DeliveryCounts rows={[['Lead (buyers and providers)', lead.deliveryCounts.leads],
                  ['Consent receipt', lead.deliveryCounts.receipts],
                  ['Privacy notices', lead.deliveryCounts.notices],
                  ['Other e-mails (offers, acceptances, review requests)', lead.deliveryCounts.messages]]} />
              </div>
              <DeliveryTimeline deliveries={lead.deliveries} canResend={isAdmin} onResent={reload} />
            </Card>
          </div>
        </>
      )}
    </>
  )
}
