import { DEFAULT_LOCALE, type Locale, MESSAGES, toLocale } from '@elex/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type en from '../../locales/en.json';
import { storage } from '../storage';

type Strings = typeof en;

/**
 * UI strings live in the locale files, one chunk per language, so a page loads only the language it
 * shows (bench: home route JavaScript); shared rule and server messages come from the contract ('msg').
 */
const loaders: Record<Locale, () => Promise<{ default: Strings }>> = {
  en: () => import('../../locales/en.json'),
  zh: () => import('../../locales/zh.json'),
  ko: () => import('../../locales/ko.json'),
};

/** spec: default en unless a stored locale exists. */
export function initialLocale(): Locale {
  return toLocale(storage.getLocale() ?? DEFAULT_LOCALE);
}

export function currentLocale(): Locale {
  return toLocale(i18next.language);
}

/** Fetches a language's strings once; later calls answer at once. */
export async function loadLocale(locale: Locale): Promise<void> {
  if (i18next.hasResourceBundle(locale, 'translation')) return;
  const { default: strings } = await loaders[locale]();
  i18next.addResourceBundle(locale, 'translation', strings, true, true);
  i18next.addResourceBundle(locale, 'msg', MESSAGES[locale], true, true);
}

/** Loads a language's strings, then shows it. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export async function initI18n(locale: Locale = initialLocale()) {
  const { default: strings } = await loaders[locale]();
  await i18next.use(initReactI18next).init({
    resources: { [locale]: { translation: strings, msg: MESSAGES[locale] } },
    partialBundledLanguages: true,
    lng: locale,
    fallbackLng: false,
    ns: ['translation', 'msg'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = locale;
  return i18next;
}
