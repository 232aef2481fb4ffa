import type { Locale } from '@elex/contract';
import i18next, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';

/** How the app reads its catalogs; translate.test.ts reads the first paint's strings with it too. */
export const I18NEXT_OPTIONS = {
  partialBundledLanguages: true,
  fallbackLng: false,
  ns: ['translation', 'msg'],
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  returnNull: false,
  // A catalog arriving later (another language) re-renders what is on screen.
  react: { bindI18nStore: 'added' },
} satisfies InitOptions;

/**
 * i18next and react-i18next, loaded after the first paint (i18n.ts): the pages' `useTranslation` from
 * react-i18next reads this instance. Catalogs are added as they arrive (loadLocale).
 */
export async function startI18next(locale: Locale) {
  await i18next.use(initReactI18next).init({ ...I18NEXT_OPTIONS, resources: {}, lng: locale });
  return i18next;
}
