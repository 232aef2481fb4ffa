/** Spec section 9: zh, en, ko, in that order (the language dialog lists them so); default en. */
export const LOCALES = ['zh', 'en', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Reads a `lang` header or stored value; anything unknown falls back to the default. */
export function toLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** Each language names itself in the language dialog. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', zh: '中文', ko: '한국어' };
