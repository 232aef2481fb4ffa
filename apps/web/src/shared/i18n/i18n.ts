import { DEFAULT_LOCALE, type Locale, MESSAGES, toLocale } from '@elex/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import ko from '../../locales/ko.json';
import zh from '../../locales/zh.json';
import { storage } from '../storage';

/** UI strings live in the locale files; shared rule and server messages come from the contract ('msg'). */
export const resources = {
  en: { translation: en, msg: MESSAGES.en },
  zh: { translation: zh, msg: MESSAGES.zh },
  ko: { translation: ko, msg: MESSAGES.ko },
} as const;

/** spec: default en unless a stored locale exists. */
export function initialLocale(): Locale {
  return toLocale(storage.getLocale() ?? DEFAULT_LOCALE);
}

export function currentLocale(): Locale {
  return toLocale(i18next.language);
}

export async function initI18n(locale: Locale = initialLocale()) {
  await i18next.use(initReactI18next).init({
    resources,
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
