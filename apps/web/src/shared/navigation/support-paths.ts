import { PATHS, type SupportKind } from '@elex/contract';

/**
 * Where a member opens a support request (issue 11): `/mypage/support/new` with the kind and the UID
 * it is about filled in, so a refusal dialog, a UID page or the withdrawal page leads straight to the
 * right form.
 */
export const newSupportRequestHref = (about: { kind?: SupportKind; platId?: number; uid?: string } = {}) => {
  const query = new URLSearchParams();
  if (about.kind) query.set('kind', about.kind);
  if (about.platId !== undefined) query.set('platId', String(about.platId));
  if (about.uid) query.set('uid', about.uid);
  const search = query.toString();
  return `${PATHS.myPageSupport}/new${search ? `?${search}` : ''}`;
};

/** One request's thread, as the answer mail links it. */
export const supportRequestHref = (id: string) => `${PATHS.myPageSupport}/${id}`;
