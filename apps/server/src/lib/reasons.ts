import { isMessageKey, type Locale, type MessageKey, translate } from '@elex/contract';

/**
 * Why a line of an imported file or a row from an exchange was refused, as a message key and its
 * parameters: the console says it in the operator's language, the CLI and the kept run in English.
 */
export interface Reason {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export function because(key: MessageKey, params?: Record<string, string | number>): Reason {
  return params ? { key, params } : { key };
}

/** A refusal's fields: its English text (`reason`, what the CLI prints) and the key behind it. */
export interface Explained {
  reason: string;
  key?: MessageKey;
  params?: Record<string, string | number>;
}

export function explained(reason: Reason): Explained & Reason {
  return { reason: translate('en', reason.key, reason.params), ...reason };
}

/** A problem as a console answer shows it: the reason in `locale` (one kept before keys: as kept). */
export function inLocale<T extends { reason: string; key?: unknown; params?: unknown }>(
  locale: Locale,
  problem: T,
): Omit<T, 'key' | 'params'> {
  const { key, params, ...rest } = problem;
  if (typeof key !== 'string' || !isMessageKey(key)) return rest;
  return { ...rest, reason: translate(locale, key, params as Record<string, string | number> | undefined) };
}
