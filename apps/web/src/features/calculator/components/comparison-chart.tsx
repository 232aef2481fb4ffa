import type { CashbackEstimateResponse } from '@elex/contract';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatUsdt } from '../../../shared/exchanges/format';

const BAR_HEIGHT = 34;

/**
 * The same answers at every partner, as horizontal bars (recharts, loaded with this chunk only).
 * Bars are drawn from numbers; every figure a person reads is the exact decimal string, formatted.
 * The page pairs the chart with a table, so the drawing itself is hidden from screen readers.
 */
export default function ComparisonChart({
  comparisons,
  chosenPlatId,
}: {
  comparisons: CashbackEstimateResponse['comparisons'];
  chosenPlatId: number;
}) {
  const data = comparisons.map((row) => ({
    name: row.platname,
    value: Number(row.monthly),
    label: formatUsdt(row.monthly),
    chosen: row.platId === chosenPlatId,
  }));
  return (
    <div className="comparison-chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={data.length * BAR_HEIGHT + 24}>
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 4, right: 72, bottom: 4, left: 4 }}
          // The table beside the chart is the accessible form: the drawing takes no focus.
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} stroke="#263047" />
          <XAxis type="number" hide />
          <YAxis
            type="category"
            dataKey="name"
            width={84}
            tickLine={false}
            axisLine={false}
            tick={{ fill: '#c9d1e3', fontSize: 13 }}
          />
          <Bar dataKey="value" radius={[0, 6, 6, 0]} isAnimationActive={false} barSize={20}>
            {data.map((entry) => (
              <Cell key={entry.name} fill={entry.chosen ? '#f5b83d' : '#4a5878'} />
            ))}
            <LabelList dataKey="label" position="right" fill="#e8ecf4" fontSize={12} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
