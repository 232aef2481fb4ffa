import type { Locale } from '@elex/contract';
import { currentLocale } from '../../shared/i18n/i18n';
import { storage } from '../../shared/storage';

/**
 * spec: choosing a different language stores it, applies it, closes the dialog and reloads. Its own
 * module: the language dialog, loaded on demand, and the button that loads it both use it.
 */
export function chooseLocale(next: Locale, reload: () => void = () => window.location.reload()) {
  if (next === currentLocale()) return false;
  storage.setLocale(next);
  document.documentElement.lang = next;
  reload();
  return true;
}
