import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { prefersReducedMotion } from '../../../shared/reduced-motion';
import { withEmptyDays } from '../fill-days';

/**
 * Cashback per day as bars (recharts, in this page's chunk only). The figures beside it are the
 * accessible form, so the drawing is hidden from screen readers; values are drawn from numbers but
 * every figure a person reads elsewhere is the exact decimal string.
 */
export default function DailyChart({ daily }: { daily: { day: string; amount: string }[] }) {
  // Through today (UTC): a day without cashback is a bar of zero, not a gap closed up.
  const today = new Date().toISOString().slice(0, 10);
  const data = withEmptyDays(daily, today).map((point) => ({
    day: point.day.slice(5),
    amount: Number(point.amount),
  }));
  return (
    <div className="daily-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#263047" />
          <XAxis
            dataKey="day"
            tick={{ fill: '#9aa5bd', fontSize: 11 }}
            interval="preserveStartEnd"
            minTickGap={24}
          />
          <YAxis tick={{ fill: '#9aa5bd', fontSize: 11 }} width={48} />
          <Tooltip
            cursor={{ fill: 'rgb(245 184 61 / 10%)' }}
            contentStyle={{ background: '#161d2d', border: '1px solid #263047' }}
          />
          <Bar
            dataKey="amount"
            fill="#f5b83d"
            radius={[3, 3, 0, 0]}
            isAnimationActive={!prefersReducedMotion()}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
