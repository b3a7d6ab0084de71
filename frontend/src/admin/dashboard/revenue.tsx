import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { KeyRevenue, Revenue } from '../types'
import { Card, formatDollars, Stat } from '../ui'

function RevenuePerDayChart({ days }: { days: Revenue['perDay'] }) {
  const rows = days.map((d) => ({ day: d.day.slice(5), dollars: d.cents / 100 }))
  return (
    <div className="h-48 w-full" role="img"
      aria-label={`Revenue per day, ${days.length} days, ${formatDollars(days.reduce((s, d) => s + d.cents, 0))} in all`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} minTickGap={12} />
          <YAxis fontSize={12} width={48} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip formatter={(v) => formatDollars(Math.round(Number(v) * 100))} />
          <Bar dataKey="dollars" name="Revenue" fill="#047857" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

/** One breakdown as a list: name, sales, revenue; long names wrap instead of widening the page. */
function RevenueList({ title, rows }: { title: string; rows: (KeyRevenue & { name?: string })[] }) {
  return (
    <Card title={title}>
      {rows.length === 0 ? <p className="text-sm text-slate-500">No sales.</p> : (
        <ul className="text-sm">
          {rows.map((row) => (
            <li key={row.key || 'none'} className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-1">
              <span className="min-w-0 break-words">{row.name ?? row.key}</span>
              <span className="shrink-0 text-right tabular-nums">
                <span className="mr-2 text-xs text-slate-500">{row.sales} {row.sales === 1 ? 'sale' : 'sales'}</span>
                {formatDollars(row.cents)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}

export function RevenueSection({ revenue }: { revenue: Revenue }) {
  return (
    <section aria-labelledby="revenue-heading" className="space-y-4">
      <h2 id="revenue-heading" className="text-lg font-semibold">Revenue</h2>
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Revenue and earnings per lead">
          <div className="grid grid-cols-2 gap-2">
            <Stat label="Revenue" value={formatDollars(revenue.cents)} />
            <Stat label="Earnings per lead" value={formatDollars(revenue.earningsPerLeadCents)} />
            <Stat label="Sales" value={revenue.sales} />
            <Stat label="Leads" value={revenue.leads} />
          </div>
        </Card>
        <Card title="Revenue per day" className="lg:col-span-2">
          <RevenuePerDayChart days={revenue.perDay} />
        </Card>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <RevenueList title="Revenue by buyer" rows={revenue.byBuyer} />
        <RevenueList title="Revenue by service" rows={revenue.byService} />
        <RevenueList title="Revenue by state" rows={revenue.byState} />
        <RevenueList title="Revenue by source" rows={revenue.bySource} />
      </div>
    </section>
  )
}
