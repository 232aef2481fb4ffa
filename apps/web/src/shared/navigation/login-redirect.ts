import { PATHS } from '@elex/contract';

/**
 * spec: a member route opened without a token goes to /login with `redirect` set to the full target
 * path; the other query values are kept.
 */
export function loginRedirectFor(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete('redirect');
  params.set('redirect', `${pathname}${search}`);
  return `${PATHS.login}?${params.toString()}`;
}

/** Only same-site paths are followed, so a crafted link cannot send a user elsewhere. */
export function safeRedirectTarget(raw: string | null): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return PATHS.home;
  return raw;
}
