import { PATHS } from '@elex/contract';

/** Addresses of the catalog pages with their query values (spec section 2). */
export const exchangeDetailHref = (platId: number) => `${PATHS.exchangeDetail}?id=${platId}`;

export const uidSearchHref = (uid: string, platId: number) =>
  `${PATHS.exchangeNo}?${new URLSearchParams({ uid, platId: String(platId) })}`;

/** /uidlinking reads platId and uid to prefill its form (the spec names no query for it). */
export const uidLinkingHref = (platId: number, uid?: string) =>
  `${PATHS.uidLinking}?${new URLSearchParams({ platId: String(platId), ...(uid ? { uid } : {}) })}`;

/** spec section 2: /exchangeLinkDetail (query platId, UID). */
export const exchangeLinkDetailHref = (platId: number, uid: string) =>
  `${PATHS.exchangeLinkDetail}?${new URLSearchParams({ platId: String(platId), UID: uid })}`;

/** /withdrawal reads platId and uid to choose that bound UID in its form (the spec names no query). */
export const withdrawalHref = (platId: number, uid: string) =>
  `${PATHS.withdrawal}?${new URLSearchParams({ platId: String(platId), uid })}`;
