import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentEvictions } from './recent-evictions.js';

describe('RecentEvictions', () => {
  it('answers 0 for a key never named while nothing is forgotten', () => {
    const evictions = new RecentEvictions<number>(3);
    evictions.record(1, 1);
    expect(evictions.at(2)).toBe(0);
    expect(evictions.at(1)).toBe(1);
  });

  it('forgets the oldest past its limit and answers its sequence for every key without an entry', () => {
    const evictions = new RecentEvictions<string>(2);
    evictions.record('a', 1);
    evictions.record('b', 2);
    evictions.record('c', 3);
    expect(evictions.size).toBe(2);
    // 'a' is forgotten: a key never named may have been evicted up to 1.
    expect(evictions.at('never named')).toBe(1);
    expect(evictions.at('b')).toBe(2);
    expect(evictions.at('c')).toBe(3);
  });

  it('moves a key named again to the newest place, so the one named longest ago goes first', () => {
    const evictions = new RecentEvictions<string>(2);
    evictions.record('a', 1);
    evictions.record('b', 2);
    evictions.record('a', 3);
    evictions.record('c', 4);
    expect(evictions.at('a')).toBe(3);
    expect(evictions.at('b')).toBe(2); // forgotten: the floor is b's own sequence
    expect(evictions.at('never named')).toBe(2);
  });

  it('never answers less than the last eviction of a key, whatever was forgotten since (model)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 60 }),
        (limit, named) => {
          const evictions = new RecentEvictions<number>(limit);
          const last = new Map<number, number>();
          named.forEach((key, index) => {
            evictions.record(key, index + 1);
            last.set(key, index + 1);
          });
          expect(evictions.size).toBeLessThanOrEqual(limit);
          for (let key = 0; key <= 9; key += 1) {
            const at = evictions.at(key);
            // Never too low (a change would be missed), and never above the newest sequence.
            expect(at).toBeGreaterThanOrEqual(last.get(key) ?? 0);
            expect(at).toBeLessThanOrEqual(named.length);
          }
          // The keys named most recently are remembered exactly.
          const recent = [...new Set([...named].reverse())].slice(0, limit);
          for (const key of recent) expect(evictions.at(key)).toBe(last.get(key));
        },
      ),
    );
  });
});
