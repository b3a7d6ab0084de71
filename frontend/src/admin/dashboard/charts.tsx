import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { Dashboard, KeyCount } from '../types'

// Colour-blind-safe palette (Okabe-Ito), one colour per vertical in a stable order.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000']

export function LeadsPerDayChart({ days }: { days: Dashboard['leadsPerDay'] }) {
  const verticals = [...new Set(days.flatMap((d) => Object.keys(d.byVertical)))].sort()
  const rows = days.map((d) => ({ day: d.day.slice(5), ...d.byVertical }))
  if (days.length === 0) return <p className="py-6 text-sm text-slate-500">No leads in this range.</p>
  return (
    <div className="h-64 w-full" role="img" aria-label={`Leads per day by vertical, ${days.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} minTickGap={12} />
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {verticals.map((v, i) => (
            <Bar key={v} dataKey={v} stackId="leads" fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}

/** The largest buckets of one breakdown as horizontal bars; the rest stays in the table below. */
export function BreakdownChart({ items, label, limit = 8 }: { items: KeyCount[]; label: string; limit?: number }) {
  const top = [...items].sort((a, b) => b.count - a.count).slice(0, limit)
  if (top.length === 0) return <p className="py-4 text-sm text-slate-500">No leads.</p>
  return (
    <div style={{ height: 32 * top.length + 24 }} className="w-full" role="img"
      aria-label={`${label}: ${top.map((t) => `${t.key} ${t.count}`).join(', ')}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={top} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 0 }}>
          <XAxis type="number" allowDecimals={false} fontSize={12} />
          <YAxis type="category" dataKey="key" width={110} fontSize={12} />
          <Tooltip />
          <Bar dataKey="count" name="Leads" fill="#1e40af" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
