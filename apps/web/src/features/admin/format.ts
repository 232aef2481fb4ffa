import { displayUsdt } from '@elex/contract';
import { dateTimeFormat, numberFormat } from '../../shared/i18n/intl-formats';

/** Times in the console are UTC (the server's days are UTC days), said so. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const text = dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
  return `${text} UTC`;
}

/**
 * A UTC period as short as it reads unambiguously: the date once when both ends share it
 * ("Nov 28, 2026, 1:00 – 2:00 AM UTC"), both in full otherwise.
 */
export function formatTimeRange(fromIso: string, toIso: string): string {
  const format = dateTimeFormat({ timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
  return `${format.formatRange(new Date(fromIso), new Date(toIso))} UTC`;
}

/** A short UTC time for dense tables whose header says UTC: "Nov 22, 01:00". */
export function formatShortTime(iso: string): string {
  return dateTimeFormat({
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(new Date(iso));
}

/** A large USDT figure for a summary card: two decimals, truncated. */
export function formatCardAmount(value: string): string {
  const [whole = '0', fraction = ''] = value.replace(/^-/, '').split('.');
  const grouped = numberFormat().format(BigInt(whole));
  return `${value.startsWith('-') ? '-' : ''}${grouped}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

// A calendar day reads the same for members and operators (the exchange page's fee check date too).
export { formatDay } from '../../shared/i18n/intl-formats';

/**
 * "12.500000" -> "12.50", keeping every non-zero decimal an operator must see ("0.123456"), grouped.
 * The server sends USDT with 6 decimals; anything else is shown as it came rather than break the page.
 */
export function formatAmount(value: string): string {
  const negative = value.startsWith('-');
  let digits: string;
  try {
    digits = displayUsdt(value.replace(/^-/, ''));
  } catch {
    return value;
  }
  const [whole = '0', fraction = '00'] = digits.split('.');
  const grouped = numberFormat().format(BigInt(whole));
  return `${negative ? '-' : ''}${grouped}.${fraction}`;
}

/**
 * A fee in gwei per gas as read at a glance: two decimals at most ("1.242396371" -> "1.24"), three
 * significant digits below one gwei, so a tiny fee never reads as zero.
 */
export function formatGwei(value: string): string {
  const gwei = Number(value);
  if (!Number.isFinite(gwei)) return value;
  const options: Intl.NumberFormatOptions =
    gwei > 0 && gwei < 1 ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 2 };
  return numberFormat(options).format(gwei);
}

/** Bytes as KB or MB for file sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
