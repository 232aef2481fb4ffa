import { describe, expect, it } from 'vitest';
import { withEmptyDays } from './fill-days';

describe('the chart’s days (issue 15)', () => {
  it('shows the days without cashback as zero, up to the last day', () => {
    expect(
      withEmptyDays(
        [
          { day: '2026-02-27', amount: '5.000000' },
          { day: '2026-03-02', amount: '1.500000' },
        ],
        '2026-03-03',
      ),
    ).toEqual([
      { day: '2026-02-27', amount: '5.000000' },
      { day: '2026-02-28', amount: '0' },
      { day: '2026-03-01', amount: '0' },
      { day: '2026-03-02', amount: '1.500000' },
      { day: '2026-03-03', amount: '0' },
    ]);
  });

  it('draws nothing when there is no cashback at all', () => {
    expect(withEmptyDays([], '2026-03-03')).toEqual([]);
  });
});
