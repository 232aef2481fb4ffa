import { isMessageKey } from '@elex/contract';
import type { TFunction } from 'i18next';

/** A form error's text: the contract's message keys in the current language, anything else 'invalid value'. */
export function fieldError(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return t(`msg:${isMessageKey(message) ? message : 'invalidValue'}`);
}
