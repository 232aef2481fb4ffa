import { describe, expect, it, vi } from 'vitest';
import { fetchAllAfter } from './fetch-all-pages';

describe('an export walking a list by cursor', () => {
  it('stops when the cursor does not move, and says the file is partial', async () => {
    const record = { id: '7' };
    // A server that keeps naming the same record as the next cursor would be asked forever.
    const fetchPage = vi.fn(async (_after: string | undefined, _pageSize: number) => ({
      records: [record],
      total: 3,
      next: '7',
    }));
    const result = await fetchAllAfter(fetchPage);
    expect(fetchPage.mock.calls.map(([after]) => after)).toEqual([undefined, '7']);
    expect(result).toEqual({ records: [record], total: 3, complete: false });
  });
});
