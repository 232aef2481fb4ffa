import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatUsdt } from '../exchanges/format';
import { changeLocale } from './i18n';
import { dateTimeFormat, formatDay, formatLocalTime, numberFormat } from './intl-formats';

describe('Intl formats for the shown language', () => {
  afterAll(() => changeLocale('en'));

  it('makes one formatter per language and options, and a new one when the language changes', async () => {
    await changeLocale('en');
    const english = numberFormat({ maximumFractionDigits: 2 });
    expect(numberFormat({ maximumFractionDigits: 2 })).toBe(english);
    expect(numberFormat({ maximumFractionDigits: 3 })).not.toBe(english);
    expect(english.resolvedOptions().locale).toBe('en');

    await changeLocale('ko');
    const korean = numberFormat({ maximumFractionDigits: 2 });
    expect(korean).not.toBe(english);
    expect(korean.resolvedOptions().locale).toBe('ko');
  });

  it('formats as Intl does in the shown language: figures, days and local times', async () => {
    await changeLocale('zh');
    const at = '2026-11-27T15:04:00Z';
    expect(formatLocalTime(at)).toBe(
      new Date(at).toLocaleString('zh', { dateStyle: 'medium', timeStyle: 'short' }),
    );
    expect(dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' }).format(new Date(at))).toBe(
      '2026年11月27日',
    );

    await changeLocale('en');
    // Truncated, never rounded up, with the same cached formatter on the second call.
    expect(formatUsdt('1234.567800')).toBe('1,234.56');
    expect(formatUsdt('0.999999')).toBe('0.99');
    expect(formatLocalTime(at)).toBe(
      new Date(at).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }),
    );
  });

  it("makes a local time's formatter again when the device's offset changes, and never throws on a bad time", () => {
    const local = dateTimeFormat({ dateStyle: 'medium' });
    expect(dateTimeFormat({ dateStyle: 'medium' })).toBe(local);
    const offset = vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-540);
    expect(dateTimeFormat({ dateStyle: 'medium' })).not.toBe(local);
    // A formatter with its own zone does not depend on the device's.
    const utc = dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' });
    offset.mockRestore();
    expect(dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium' })).toBe(utc);

    expect(formatLocalTime('')).toBe('—');
    expect(formatLocalTime('not a time')).toBe('—');
  });

  it('writes a calendar day as Intl’s medium date style does, in each language, without making a formatter', async () => {
    // Every day of four years, a leap year among them.
    const days: number[] = [];
    for (let time = Date.UTC(2024, 0, 1); time < Date.UTC(2028, 0, 1); time += 86_400_000) days.push(time);
    const locales = ['zh', 'en', 'ko'] as const;
    const expected = locales.map((locale) => {
      const intl = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'medium' });
      return days.map((time) => intl.format(new Date(time)));
    });
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const written: string[][] = [];
      for (const locale of locales) {
        await changeLocale(locale);
        // As a day, and as a UTC time late in that day: the same day wherever the reader is.
        written.push(
          days.map((time) => {
            const day = new Date(time).toISOString().slice(0, 10);
            const late = formatDay(`${day}T23:59:00Z`);
            return late === formatDay(day) ? late : `${day}: ${late} at 23:59 UTC`;
          }),
        );
      }
      expect(made).not.toHaveBeenCalled();
      expect(written).toEqual(expected);
      expect(formatDay('not a day')).toBe('not a day');
    } finally {
      made.mockRestore();
    }
  });
});
