import { DEFAULT_LOCALE, type Locale, toLocale } from '@elex/contract';
import type { i18n as I18next } from 'i18next';
import { afterFirstPaint } from '../after-first-paint';
import { storage } from '../storage';
import firstPaintEn from './first-paint/en';
import { type Bundles, translate as readKey, type TranslateOptions } from './translate';

type Strings = Record<string, unknown>;

/**
 * issue 14: the first paint waits for neither a catalog download nor i18next. English, the default and
 * so every first visit's language, ships the sections the shell and the home page show inside the main
 * chunk; Chinese and Korean load theirs (a small chunk) first. Those sections are read by `translate`
 * (translate.ts), a few lines that read the catalog's format as i18next does. Right after the first
 * render, i18next with react-i18next, the whole catalog and the server messages ('msg', from the
 * contract) load; once they are in, i18next answers every `t` (it takes over) from the next render on,
 * re-rendering only when the screen may differ from its answer (takeOverWhenComplete). Every page but
 * the home waits for them (lazyPage) and may use react-i18next; the shell and the home use `useTranslation` from ./use-translation, which works before and after. The home's first
 * paint does not share the network with that download: it starts once the page has painted. The sections are
 * listed in first-paint/*.ts; first-paint.test.tsx proves the shell and the home page need no other.
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

export type TFunction = (key: string, options?: TranslateOptions) => string;

/** Where `t` reads from; the shell and the home render through one (use-translation.ts). */
export interface Translator {
  /** Calls the listener whenever what `t` answers may have changed (a language, a catalog arriving). */
  subscribe(listener: () => void): () => void;
  /** The `t` of now: a new function after each change, so that what memoizes on it follows. */
  current(): TFunction;
}

let shown: Locale = DEFAULT_LOCALE;
let firstPaint: Bundles = {};
/** The language of the first paint's strings (what the screen shows until i18next answers). */
let firstPaintLocale: Locale = DEFAULT_LOCALE;
let isStarted = false;
/** i18next, once it has the shown language's whole catalog. */
let runtime: I18next | undefined;
let runtimeLoading: Promise<I18next> | undefined;
const listeners = new Set<() => void>();

/** A key the first paint's strings lacked was shown: i18next's takeover must re-render to correct it. */
let missedBeforeTakeover = false;
const noteMissing = () => {
  missedBeforeTakeover = true;
};
const readNow: TFunction = (key, options) =>
  runtime ? (runtime.t as TFunction)(key, options) : readKey(firstPaint, key, options, noteMissing);
let currentT: TFunction = (key, options) => readNow(key, options);

function notify() {
  currentT = (key, options) => readNow(key, options);
  for (const listener of listeners) listener();
}

export const appTranslator: Translator = {
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  current: () => currentT,
};

/** A string in the shown language, outside React (the API client's failure messages). */
export const translate: TFunction = readNow;

/** spec: default en unless a stored locale exists. */
export function initialLocale(): Locale {
  return toLocale(storage.getLocale() ?? DEFAULT_LOCALE);
}

export function currentLocale(): Locale {
  return runtime ? toLocale(runtime.language) : shown;
}

/** Loads and starts i18next once, in the shown language; later calls share the first. */
function loadRuntime(): Promise<I18next> {
  if (!runtimeLoading) {
    runtimeLoading = import('./i18next-runtime').then((module) => module.startI18next(shown));
    runtimeLoading.catch(() => {
      runtimeLoading = undefined;
    });
  }
  return runtimeLoading;
}

/** i18next answers from the moment it holds everything the first paint's sections held, and more. */
function takeOverWhenComplete(i18n: I18next) {
  if (runtime || !i18n.hasResourceBundle(shown, 'translation')) return;
  runtime = i18n;
  i18n.on('languageChanged', notify);
  i18n.store.on('added', notify);
  // No re-render when i18next answers every string on screen as the first paint's reading did (the same
  // language: translate.test.ts holds the two equal); the next render anywhere reads i18next.
  // Re-rendering the whole page for the same texts was a long task right after the first paint (issue
  // 14). A language chosen before i18next took over, or a key the first paint's strings lacked (shown
  // as the key), is another text: that re-renders.
  if (toLocale(i18n.language) !== firstPaintLocale || missedBeforeTakeover) notify();
}

const complete = new Map<Locale, Promise<void>>();

/** Fetches a language's whole catalog and server messages, and i18next, once; later calls share the first. */
export function loadLocale(locale: Locale): Promise<void> {
  let loading = complete.get(locale);
  if (!loading) {
    loading = Promise.all([catalogLoaders[locale](), loadServerMessages(), loadRuntime()]).then(
      ([catalog, messages, i18n]) => {
        i18n.addResourceBundle(locale, 'translation', catalog.default, true, true);
        i18n.addResourceBundle(locale, 'msg', messages[locale], true, true);
        takeOverWhenComplete(i18n);
      },
    );
    // A failed download may be retried by the next page that needs it.
    loading.catch(() => complete.delete(locale));
    complete.set(locale, loading);
  }
  return loading;
}

/**
 * Resolves once the shown language is complete and i18next answers: pages other than the home await it
 * with their chunk. Before initI18n (tests that render without it) there is nothing to wait for.
 */
export function whenStringsComplete(): Promise<void> {
  return isStarted ? loadLocale(currentLocale()) : Promise.resolve();
}

/** Loads a language's strings, then shows it. */
export async function changeLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  const i18n = await loadRuntime();
  await i18n.changeLanguage(locale);
  shown = locale;
  document.documentElement.lang = locale;
}

/** Makes the first paint's strings of a language ready, then starts loading the rest. */
export async function initI18n(locale: Locale = initialLocale()): Promise<void> {
  firstPaint = { translation: await firstPaintLoaders[locale]() };
  firstPaintLocale = locale;
  shown = locale;
  isStarted = true;
  notify();
  document.documentElement.lang = locale;
  // Not awaited: the rest of the language and i18next download once the first page has painted (a page
  // that needs them asks at once, lazyPage).
  afterFirstPaint(() => loadLocale(locale).catch(() => undefined));
}
