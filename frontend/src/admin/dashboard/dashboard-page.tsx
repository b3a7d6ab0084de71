import { query } from '../api'
import { RangeFilters, useFilters } from '../filters'
import type { Dashboard, KeyCount } from '../types'
import { useApi } from '../use-api'
import { Card, DeliveryCounts, ErrorNotice, formatRatio, formatSeconds, Loading, PageTitle, Stat } from '../ui'
import { BreakdownChart, LeadsPerDayChart } from './charts'
import { MoneyPanel } from '../money/money-panel'
import { Funnels } from './funnels'
import { QualityPanel } from './quality-panel'
import { RevenueSection } from './revenue'

const KEYS = ['from', 'to', 'vertical', 'service', 'state', 'source'] as const

function Breakdown({ title, items }: { title: string; items: KeyCount[] }) {
  return (
    <Card title={title}>
      <BreakdownChart items={items} label={title} />
    </Card>
  )
}

export default function DashboardPage() {
  const filters = useFilters(KEYS)
  // An empty range asks the server for its default (the last 30 days).
  const { data, error, loading } = useApi<Dashboard>(`/dashboard${query(filters.values)}`)
  const total = data?.leadsPerDay.reduce((sum, d) => sum + d.total, 0) ?? 0
  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      <form className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" onSubmit={(e) => e.preventDefault()}
        aria-label="Dashboard filters">
        <RangeFilters filters={filters} />
      </form>
      <ErrorNotice message={error} />
      {loading && !data && <Loading />}
      {data && (
        <div className="space-y-6" aria-busy={loading}>
          <p className="text-sm text-slate-600">{data.range.from} to {data.range.to}</p>
          <div className="grid gap-4 lg:grid-cols-3">
            <Card title="Leads per day" className="lg:col-span-2">
              <p className="mb-2 text-sm text-slate-600"><span className="font-semibold tabular-nums">{total}</span> {total === 1 ? 'lead' : 'leads'}</p>
              <LeadsPerDayChart days={data.leadsPerDay} />
            </Card>
            <Card title="Lead deliveries">
              <p className="mb-2 text-xs text-slate-500">The leads sent to buyers and providers.</p>
              <div className="grid grid-cols-2 gap-2">
                <Stat label="Success rate" value={formatRatio(data.delivery.successRate)} />
                <Stat label="Lead deliveries" value={data.delivery.total} />
                <Stat label="Time to delivery p50" value={formatSeconds(data.delivery.p50Seconds)} />
                <Stat label="Time to delivery p99" value={formatSeconds(data.delivery.p99Seconds)} />
                <Stat label="Failed" value={data.delivery.failed} />
                <Stat label="Rejected" value={data.delivery.rejected} />
                <Stat label="Pending" value={data.delivery.pending} />
                <Stat label="Delivered" value={data.delivery.delivered} />
              </div>
              <h3 className="mt-4 mb-1 text-sm font-semibold">Counted apart</h3>
              <DeliveryCounts rows={[['Consent receipts', data.delivery.receipts],
                ['Privacy notices', data.delivery.notices],
                ['Other e-mails (offers, acceptances, review requests)', data.delivery.messages]]} />
            </Card>
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <Breakdown title="By vertical" items={data.byVertical} />
            <Breakdown title="By service" items={data.byService} />
            <Breakdown title="By state" items={data.byState} />
            <Breakdown title="By source" items={data.bySource} />
          </div>
          <QualityPanel filters={filters.values} />
          <RevenueSection revenue={data.revenue} />
          <MoneyPanel from={filters.values.from} to={filters.values.to} />
          <Card title="Call-flow clicks to call">
            {data.callClicks.length === 0 ? <p className="text-sm text-slate-500">No clicks to call.</p> : (
              <ul className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-3">
                {data.callClicks.map((c) => (
                  <li key={c.service} className="flex justify-between gap-2 border-b border-slate-100 py-1">
                    <span>{c.service}</span><span className="tabular-nums">{c.count}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <section aria-labelledby="funnels-heading">
            <h2 id="funnels-heading" className="mb-3 text-lg font-semibold">Funnels</h2>
            <Funnels funnels={data.funnels} />
          </section>
        </div>
      )}
    </>
  )
}
