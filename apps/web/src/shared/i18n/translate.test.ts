import { LOCALES, type Locale } from '@elex/contract';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import firstPaintEn from './first-paint/en';
import firstPaintKo from './first-paint/ko';
import firstPaintZh from './first-paint/zh';
import { I18NEXT_OPTIONS } from './i18next-runtime';
import { translate } from './translate';

const FIRST_PAINT: Record<Locale, Record<string, unknown>> = {
  en: firstPaintEn,
  zh: firstPaintZh,
  ko: firstPaintKo,
};

/** Every string of a catalog by its dotted key. */
function leaves(strings: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(strings).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value]]
      : leaves(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

async function i18nextOver(
  locale: Locale,
  strings: Record<string, unknown>,
  msg: Record<string, unknown> = {},
) {
  const i18n = createInstance();
  await i18n.init({
    ...I18NEXT_OPTIONS,
    lng: locale,
    resources: { [locale]: { translation: strings, msg } },
  });
  return i18n;
}

describe("the first paint's reading of the catalog (issue 14)", () => {
  it.each(LOCALES)('uses only what it reads in %s: no plurals, nesting or formats', (locale) => {
    for (const [key, text] of leaves(FIRST_PAINT[locale])) {
      expect(key, `${locale} ${key}`).not.toMatch(/_(zero|one|two|few|many|other)$/);
      expect(text, `${locale} ${key}`).not.toMatch(/\$t\(|\{\{[^}]*,|\{\{-/);
    }
  });

  it.each(LOCALES)('reads every first-paint string of %s as i18next does', async (locale) => {
    const i18n = await i18nextOver(locale, FIRST_PAINT[locale]);
    const bundles = { translation: FIRST_PAINT[locale] };
    const pairs = leaves(FIRST_PAINT[locale]);
    expect(pairs.length).toBeGreaterThan(100);
    for (const [key, text] of pairs) {
      // Each placeholder gets a value of its own; a number too, as the home passes amounts.
      const values = Object.fromEntries(
        [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map(([, name], index) => [
          name,
          index % 2 ? 42 : `<${name}>`,
        ]),
      );
      expect(translate(bundles, key, values), `${locale} ${key}`).toBe(i18n.t(key, values));
      expect(translate(bundles, key), `${locale} ${key} without values`).toBe(i18n.t(key));
    }
  });

  it('answers a missing key, a default and a server message as i18next does', async () => {
    const strings = { home: { title: 'Home {{name}}' } };
    const msg = { comingSoon: 'Coming soon' };
    const i18n = await i18nextOver('en', strings, msg);
    const bundles = { translation: strings, msg };
    const cases: [string, Record<string, unknown>?][] = [
      ['home.missing'],
      ['home.tag', { defaultValue: 'popular {{name}}', name: 'x' }],
      ['msg:comingSoon'],
      ['msg:missing'],
      ['home.title', { name: 0 }],
      ['home.title', { name: null }],
      ['home.title', {}],
    ];
    for (const [key, options] of cases)
      expect(translate(bundles, key, options), key).toBe(i18n.t(key, options));
  });
});
