import type { Dashboard } from '@elex/contract';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { prefersReducedMotion } from '../../../shared/reduced-motion';

/**
 * The dashboard's charts (recharts, in the dashboard's chunk only). Each chart is hidden from screen
 * readers: the same figures are in the tables beside them, exact.
 */
const AXIS = { fill: '#9aa5bd', fontSize: 11 };
const TOOLTIP = { background: '#161d2d', border: '1px solid #263047' };

export function MembersChart({
  days,
  labels,
}: {
  days: Dashboard['days'];
  labels: { signUps: string; boundUids: string };
}) {
  const data = days.map((day) => ({ day: day.day.slice(5), signUps: day.signUps, boundUids: day.boundUids }));
  return (
    <div className="admin-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#263047" />
          <XAxis dataKey="day" tick={AXIS} interval="preserveStartEnd" minTickGap={24} />
          <YAxis tick={AXIS} width={36} allowDecimals={false} />
          <Tooltip contentStyle={TOOLTIP} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line
            type="monotone"
            dataKey="signUps"
            name={labels.signUps}
            stroke="#f5b83d"
            strokeWidth={2}
            dot={false}
            isAnimationActive={!prefersReducedMotion()}
          />
          <Line
            type="monotone"
            dataKey="boundUids"
            name={labels.boundUids}
            stroke="#3ad29f"
            strokeWidth={2}
            dot={false}
            isAnimationActive={!prefersReducedMotion()}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

export function CashbackChart({
  days,
  labels,
}: {
  days: Dashboard['days'];
  labels: { accrued: string; paid: string };
}) {
  const data = days.map((day) => ({
    day: day.day.slice(5),
    accrued: Number(day.cashbackAccrued),
    paid: Number(day.cashbackPaid),
  }));
  return (
    <div className="admin-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={240}>
        <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#263047" />
          <XAxis dataKey="day" tick={AXIS} interval="preserveStartEnd" minTickGap={24} />
          <YAxis tick={AXIS} width={56} />
          <Tooltip contentStyle={TOOLTIP} cursor={{ fill: 'rgb(245 184 61 / 10%)' }} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            dataKey="accrued"
            name={labels.accrued}
            fill="#f5b83d"
            radius={[3, 3, 0, 0]}
            isAnimationActive={!prefersReducedMotion()}
          />
          <Bar
            dataKey="paid"
            name={labels.paid}
            fill="#3ad29f"
            radius={[3, 3, 0, 0]}
            isAnimationActive={!prefersReducedMotion()}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function PageViewsChart({ pageViews, label }: { pageViews: Dashboard['pageViews']; label: string }) {
  const height = Math.max(120, pageViews.length * 28 + 24);
  return (
    <div className="admin-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={pageViews}
          layout="vertical"
          margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} stroke="#263047" />
          <XAxis type="number" tick={AXIS} allowDecimals={false} />
          <YAxis type="category" dataKey="page" tick={AXIS} width={130} />
          <Tooltip contentStyle={TOOLTIP} cursor={{ fill: 'rgb(245 184 61 / 10%)' }} />
          <Bar
            dataKey="views"
            name={label}
            fill="#7aa2ff"
            radius={[0, 3, 3, 0]}
            isAnimationActive={!prefersReducedMotion()}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
