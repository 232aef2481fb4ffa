import { currentLocale } from '../../shared/i18n/i18n';

/** A member's times are local, as on the other member pages. */
export const formatLocalTime = (iso: string) =>
  new Date(iso).toLocaleString(currentLocale(), { dateStyle: 'medium', timeStyle: 'short' });
