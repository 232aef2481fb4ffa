import { describe, expect, it } from 'vitest';
import en from './en.json';
import ko from './ko.json';
import zh from './zh.json';

const LOCALE_FILES = { en, zh, ko } as const;

/** Flattens nested objects and arrays to `a.b.0.c` keys with their string values. */
function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      for (const [childKey, childValue] of flatten(child, path)) out.set(childKey, childValue);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

const flat = Object.fromEntries(
  Object.entries(LOCALE_FILES).map(([locale, file]) => [locale, flatten(file)]),
) as Record<keyof typeof LOCALE_FILES, Map<string, unknown>>;

describe('locale files', () => {
  it('helpers see nested objects and arrays (self-check)', () => {
    const sample = flatten({ a: { b: 'x', c: ['y', { d: 'z' }] } });
    expect([...sample.keys()]).toEqual(['a.b', 'a.c.0', 'a.c.1.d']);
    expect(placeholders('{{ year }} and {{name}}')).toEqual(['name', 'year']);
  });

  it.each(['zh', 'ko'] as const)('%s has exactly the keys of en', (locale) => {
    const enKeys = [...flat.en.keys()].sort();
    const otherKeys = [...flat[locale].keys()].sort();
    expect({
      missing: enKeys.filter((key) => !flat[locale].has(key)),
      extra: otherKeys.filter((key) => !flat.en.has(key)),
    }).toEqual({ missing: [], extra: [] });
  });

  it.each(['en', 'zh', 'ko'] as const)('%s has no empty or non-text values', (locale) => {
    const bad = [...flat[locale]].filter(([, value]) => typeof value !== 'string' || value.trim() === '');
    expect(bad.map(([key]) => key)).toEqual([]);
  });

  it.each(['zh', 'ko'] as const)('%s uses the same {{placeholders}} as en in every text', (locale) => {
    const mismatches: string[] = [];
    for (const [key, enValue] of flat.en) {
      const other = flat[locale].get(key);
      if (typeof enValue !== 'string' || typeof other !== 'string') continue;
      const expected = placeholders(enValue).join(',');
      const actual = placeholders(other).join(',');
      if (expected !== actual) mismatches.push(`${key}: en {${expected}} ${locale} {${actual}}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('is not vacuous: en holds the shell strings', () => {
    expect(flat.en.size).toBeGreaterThan(20);
    expect(flat.en.get('language.title')).toBe('Choose a language');
  });
});
