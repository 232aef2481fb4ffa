const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily series with the days between its first day and `lastDay` that had no cashback added as
 * zero, oldest first (issue 15: the chart dropped them, so a quiet week looked like none at all). The
 * server sends only days with cashback; days are UTC `YYYY-MM-DD`.
 */
export function withEmptyDays(
  daily: readonly { day: string; amount: string }[],
  lastDay: string,
): { day: string; amount: string }[] {
  const first = daily[0];
  if (!first) return [];
  const byDay = new Map(daily.map((point) => [point.day, point.amount]));
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  const filled: { day: string; amount: string }[] = [];
  for (let time = Date.parse(`${first.day}T00:00:00Z`); time <= end; time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    filled.push({ day, amount: byDay.get(day) ?? '0' });
  }
  return filled;
}
