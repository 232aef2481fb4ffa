/**
 * A friend's e-mail as the reward history shows it: the first two characters of the name (one when
 * the name is that short), then ***, then the domain. 'alice@example.com' -> 'al***@example.com'.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  const name = email.slice(0, at);
  const shown = name.length <= 2 ? name.slice(0, 1) : name.slice(0, 2);
  return `${shown}***${email.slice(at)}`;
}
