import { createContext, useContext, useSyncExternalStore } from 'react';
import { appTranslator, type Translator } from './i18n';

const TranslatorContext = createContext<Translator>(appTranslator);

/** Lets a test render with a translator of its own (first-paint.test.tsx: the first paint's strings alone). */
export const TranslatorProvider = TranslatorContext.Provider;

/**
 * `t` for the shell and the home page: the first paint's own reading before i18next has loaded,
 * i18next after (shared/i18n/i18n.ts). react-i18next's hook would bring i18next into the first download.
 */
export function useTranslation() {
  const translator = useContext(TranslatorContext);
  const t = useSyncExternalStore(translator.subscribe, translator.current);
  return { t };
}
