import { describe, expect, it } from 'vitest';
import { displayIsoTime, displayTime } from './display-time.js';

describe('displayTime', () => {
  it('says a pause or lock to the minute, in UTC', () => {
    expect(displayTime(new Date('2026-01-18T12:00:37.120Z'))).toBe('2026-01-18 12:00 UTC');
  });

  it('keeps the seconds of an exact time that has them, so two registration times stay apart', () => {
    const stored = displayTime(new Date('2026-01-18T12:00:00Z'), 'exact');
    const stated = displayTime(new Date('2026-01-18T12:00:30Z'), 'exact');
    expect([stored, stated]).toEqual(['2026-01-18 12:00 UTC', '2026-01-18 12:00:30 UTC']);
  });

  it('says a kept ISO time the same way and leaves a text that is not a time as kept', () => {
    expect(displayIsoTime('2026-01-12T14:30:00.000Z', 'exact')).toBe('2026-01-12 14:30 UTC');
    expect(displayIsoTime('yesterday')).toBe('yesterday');
  });
});
