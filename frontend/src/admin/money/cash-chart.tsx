import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { formatDollarAmount } from '../ui'
import type { Cash } from './types'

/** Money received and paid out per day: two bars a day, in and out. */
export function CashPerDayChart({ cash }: { cash: Cash }) {
  const rows = cash.perDay.map((d) => ({ day: d.day.slice(5), received: d.received, paidOut: d.paidOut }))
  return (
    <div className="h-56 w-full" role="img"
      aria-label={`Cash per day, ${cash.perDay.length} days: ${formatDollarAmount(cash.received)} received, ` +
        `${formatDollarAmount(cash.paidOut)} paid out`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} minTickGap={12} />
          <YAxis fontSize={12} width={56} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip formatter={(v) => formatDollarAmount(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="received" name="Received" fill="#009E73" isAnimationActive={false} />
          <Bar dataKey="paidOut" name="Paid out" fill="#D55E00" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
