import { CASHBACK } from '@elex/contract';
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
    // Short of the total: one more walk, then the file is offered as partial.
    expect(fetchPage.mock.calls.map(([after]) => after)).toEqual([undefined, '7', undefined, '7']);
    expect(result).toEqual({ records: [record], total: 3, complete: false });
  });

  it('starts over once when a cursor is refused, and not when the first page or a second walk fails', async () => {
    const refused = new Error('after: invalid value');
    const isRefusal = (error: unknown) => error === refused;
    const pages = { undefined: { records: [{ id: '3' }, { id: '2' }], total: 3, next: '2' } };
    // The first walk's cursor is refused; the second walk gets every record.
    let calls = 0;
    const once = vi.fn(async (after: string | undefined) => {
      calls += 1;
      if (after === '2' && calls === 2) throw refused;
      return after === undefined ? pages.undefined : { records: [{ id: '1' }], total: 3, next: null };
    });
    expect(await fetchAllAfter(once, isRefusal)).toEqual({
      records: [{ id: '3' }, { id: '2' }, { id: '1' }],
      total: 3,
      complete: true,
    });
    expect(once.mock.calls.map(([after]) => after)).toEqual([undefined, '2', undefined, '2']);

    // Refused on both walks: the error reaches the page.
    const always = vi.fn(async (after: string | undefined) => {
      if (after === '2') throw refused;
      return pages.undefined;
    });
    await expect(fetchAllAfter(always, isRefusal)).rejects.toBe(refused);
    expect(always).toHaveBeenCalledTimes(4);

    // A refusal without a cursor is not the cursor's: no second walk.
    const first = vi.fn(async () => {
      throw refused;
    });
    await expect(fetchAllAfter(first, isRefusal)).rejects.toBe(refused);
    expect(first).toHaveBeenCalledTimes(1);
  });

  it('starts over once when records arrived where the walk had passed, and then has them', async () => {
    // Two pages, newest first; a record arrives at the top after the first page was read.
    let list = Array.from({ length: 2 * CASHBACK.exportPageSize }, (_, index) => ({
      id: String(5_000 - index),
    }));
    let calls = 0;
    const fetchPage = vi.fn(async (after: string | undefined, pageSize: number) => {
      calls += 1;
      if (calls === 2) list = [{ id: '9000' }, ...list];
      const start = after === undefined ? 0 : list.findIndex((record) => record.id === after) + 1;
      const records = list.slice(start, start + pageSize);
      return {
        records,
        total: list.length,
        // As the server: the last record when a record follows the page, so a full last page has none.
        next: start + pageSize < list.length ? (records.at(-1)?.id ?? null) : null,
      };
    });
    const result = await fetchAllAfter(fetchPage);
    expect(result).toMatchObject({ complete: true, total: 2 * CASHBACK.exportPageSize + 1 });
    // Each walk ends on its last records, without asking for an empty page after them: two full pages
    // (the first walk), then two full pages and the one record that arrived (the second).
    expect(fetchPage).toHaveBeenCalledTimes(5);
    expect(result.records.map((record) => record.id)).toContain('9000');
    expect(result.records).toHaveLength(2 * CASHBACK.exportPageSize + 1);
  });
});
