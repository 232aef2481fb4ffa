/** A member's times are local, as on the other member pages. */
export { formatLocalTime } from '../../shared/i18n/intl-formats';
