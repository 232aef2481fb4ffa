import { PATHS } from '@elex/contract';

/** Addresses of the catalog pages with their query values (spec section 2). */
export const exchangeDetailHref = (platId: number) => `${PATHS.exchangeDetail}?id=${platId}`;

export const uidSearchHref = (uid: string, platId: number) =>
  `${PATHS.exchangeNo}?${new URLSearchParams({ uid, platId: String(platId) })}`;

export const uidLinkingHref = (platId: number) => `${PATHS.uidLinking}?platId=${platId}`;
