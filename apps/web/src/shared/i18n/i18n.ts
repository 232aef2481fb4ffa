import { DEFAULT_LOCALE, type Locale, toLocale } from '@elex/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storage } from '../storage';
import firstPaintEn from './first-paint/en';

type Strings = Record<string, unknown>;

/**
 * issue 14: the first paint does not wait for a catalog download. English, the default and so every
 * first visit's language, ships the sections the shell and the home page show inside the main chunk;
 * Chinese and Korean load theirs (a small chunk) first. Each language's whole catalog and the server
 * messages ('msg', from the contract) load right after, and every page but the home waits for them
 * (lazyPage). The sections are listed in first-paint/*.ts; first-paint.test.tsx proves the shell and the
 * home page need no other.
 */
const firstPaintLoaders: Record<Locale, () => Promise<Strings>> = {
  en: async () => firstPaintEn,
  zh: () => import('./first-paint/zh').then((module) => module.default),
  ko: () => import('./first-paint/ko').then((module) => module.default),
};

const catalogLoaders: Record<Locale, () => Promise<{ default: Strings }>> = {
  en: () => import('../../locales/en.json?full'),
  zh: () => import('../../locales/zh.json?full'),
  ko: () => import('../../locales/ko.json?full'),
};

/** The contract's messages of every language, one chunk that no first paint waits for. */
const loadServerMessages = () => import('./server-messages').then((module) => module.SERVER_MESSAGES);

/** spec: default en unless a stored locale exists. */
export function initialLocale(): Locale {
  return toLocale(storage.getLocale() ?? DEFAULT_LOCALE);
}

export function currentLocale(): Locale {
  return toLocale(i18next.language);
}

const complete = new Map<Locale, Promise<void>>();

/** Fetches a language's whole catalog and server messages once; later calls share the first. */
export function loadLocale(locale: Locale): Promise<void> {
  let loading = complete.get(locale);
  if (!loading) {
    loading = Promise.all([catalogLoaders[locale](), loadServerMessages()]).then(([catalog, messages]) => {
      i18next.addResourceBundle(locale, 'translation', catalog.default, true, true);
      i18next.addResourceBundle(locale, 'msg', messages[locale], true, true);
    });
    // A failed download may be retried by the next page that needs it.
    loading.catch(() => complete.delete(locale));
    complete.set(locale, loading);
  }
  return loading;
}

/**
 * Resolves once the shown language is complete: pages other than the home await it with their chunk.
 * Before initI18n (tests that set i18next up themselves) there is nothing to wait for.
 */
export function whenStringsComplete(): Promise<void> {
  return i18next.isInitialized ? loadLocale(currentLocale()) : Promise.resolve();
}

/** Loads a language's strings, then shows it. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export async function initI18n(locale: Locale = initialLocale()) {
  // A copy: i18next merges the whole catalog into the object it was given (loadLocale).
  const strings = structuredClone(await firstPaintLoaders[locale]());
  await i18next.use(initReactI18next).init({
    resources: { [locale]: { translation: strings } },
    partialBundledLanguages: true,
    lng: locale,
    fallbackLng: false,
    ns: ['translation', 'msg'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
    // The whole catalog arrives after the first render: what is on screen then re-renders with it.
    react: { bindI18nStore: 'added' },
  });
  document.documentElement.lang = locale;
  // Not awaited: the rest of the language downloads while the first page paints.
  loadLocale(locale).catch(() => undefined);
  return i18next;
}
