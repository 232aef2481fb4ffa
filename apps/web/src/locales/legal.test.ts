import { CASHBACK, TERMS } from '@elex/contract';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import ko from './ko.json';
import zh from './zh.json';

/**
 * The terms of use carry the spec's numbers, taken from the contract, in every language: a changed
 * constant, or a text edited apart from it, fails here instead of promising users something else.
 */
const LOCALES = { en, zh, ko } as const;
type Locale = keyof typeof LOCALES;

/** How each language writes a number of days, of years and an age (the units the texts use). */
const UNITS: Record<Locale, { days(n: number): string; years(n: number): string; age(n: number): string }> = {
  en: { days: (n) => `${n} days`, years: (n) => `${n} years`, age: (n) => `${n} years old` },
  zh: { days: (n) => `${n} 天`, years: (n) => `${n} 年`, age: (n) => `${n} 周岁` },
  ko: { days: (n) => `${n}일`, years: (n) => `${n}년`, age: (n) => `만 ${n}세` },
};

/** The terms' sections, by their number (the headings start "1.", "2." ... in every language). */
function termsSection(locale: Locale, number: number): string {
  const section = LOCALES[locale].legal.terms.sections.find((item) => item.heading.startsWith(`${number}.`));
  if (!section) throw new Error(`${locale} terms have no section ${number}`);
  return section.body;
}

const count = (text: string, phrase: string) => text.split(phrase).length - 1;

describe.each(Object.keys(LOCALES) as Locale[])('the %s terms of use', (locale) => {
  const unit = UNITS[locale];

  it(`refuse members under ${TERMS.minimumAge} (section 1), as the registration agreement says`, () => {
    expect(termsSection(locale, 1)).toContain(unit.age(TERMS.minimumAge));
    expect(LOCALES[locale].auth.agreement).toContain(String(TERMS.minimumAge));
    expect(LOCALES[locale].legal.privacy.sections.map((section) => section.body).join(' ')).toContain(
      unit.age(TERMS.minimumAge),
    );
  });

  it(`give ${TERMS.objectionDays} days to object and promise a reply within ${TERMS.replyDays} days (section 5)`, () => {
    const text = termsSection(locale, 5);
    const required = new Map<string, number>();
    for (const days of [TERMS.objectionDays, TERMS.replyDays]) {
      required.set(unit.days(days), (required.get(unit.days(days)) ?? 0) + 1);
    }
    for (const [phrase, times] of required) expect(count(text, phrase)).toBeGreaterThanOrEqual(times);
  });

  it(`announce changes ${TERMS.changeNoticeDays} days ahead, material ones ${TERMS.materialChangeNoticeDays} (section 6)`, () => {
    const text = termsSection(locale, 6);
    expect(text).toContain(unit.days(TERMS.changeNoticeDays));
    expect(text).toContain(unit.days(TERMS.materialChangeNoticeDays));
  });

  it(`keep money records ${CASHBACK.recordsKeptYears} years (section 7), anonymised after a deletion (section 8)`, () => {
    expect(termsSection(locale, 7)).toContain(unit.years(CASHBACK.recordsKeptYears));
    expect(termsSection(locale, 8)).toContain(unit.years(CASHBACK.recordsKeptYears));
  });

  it('number their sections 1 to 8 in order, as the checks above address them', () => {
    expect(LOCALES[locale].legal.terms.sections.map((section) => section.heading.split('.')[0])).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
    ]);
  });
});
