import { createHash } from 'node:crypto';

/** A prepared statement's name from its text: one text, one name, on every instance. */
export function statementName(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha1').update(text).digest('base64url')}`;
}
