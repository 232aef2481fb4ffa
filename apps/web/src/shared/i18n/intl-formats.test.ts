import { renderHook, waitFor } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { formatUsdt } from '../exchanges/format';
import { changeLocale } from './i18n';
import { dateTimeFormat, formatLocalTime, numberFormat, useNumberFormattingWarmed } from './intl-formats';

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

  it('makes the first number formatter of a page after its render, in a task of its own', async () => {
    await changeLocale('zh');
    const Real = Intl.NumberFormat;
    const made = vi.spyOn(Intl, 'NumberFormat').mockImplementation(function made(
      ...args: ConstructorParameters<typeof Intl.NumberFormat>
    ) {
      return new Real(...args);
    } as typeof Intl.NumberFormat);
    try {
      const page = renderHook(() => useNumberFormattingWarmed());
      // Neither the render nor its effects pay for it.
      expect(made).not.toHaveBeenCalled();
      await waitFor(() => expect(made).toHaveBeenCalledTimes(1));
      expect(made).toHaveBeenCalledWith('zh', undefined);
      page.unmount();
    } finally {
      made.mockRestore();
    }
  });
});
