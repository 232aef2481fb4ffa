import { type QueryKey, useQueryClient } from '@tanstack/react-query';

/**
 * The console's views each operator decision changes, as query-key prefixes (the keys of the api/
 * files). Queries are fresh for 30 s (shared/queries/query-scope.tsx): without this, a page opened
 * again within that time showed the state before the decision (a suspended member listed as active, a
 * paid withdrawal's funds still on the member's balance). Invalidating refetches the views on screen
 * and marks the others stale, so they load again when opened; nothing else is dropped.
 */
export const CHANGED_BY = {
  /** Posted or rejected: the queue, the member's balances and ledger, a withdrawal's balance history. */
  correction: (userId: number): QueryKey[] => [
    ['admin', 'corrections'],
    ['admin', 'member', userId],
    ['admin', 'withdrawals'],
    ['admin', 'audit'],
  ],
  /**
   * Approved, rejected or sent: the queue, the wallet and its reconciliation, the dashboard's pending
   * total, the members' balances and ledgers (a batch spans members), a support request's "withdrawals
   * under review".
   */
  withdrawal: (): QueryKey[] => [
    ['admin', 'withdrawals'],
    ['admin', 'payoutWallet'],
    ['admin', 'payoutReconciliation'],
    ['admin', 'dashboard'],
    ['admin', 'member'],
    ['admin', 'support', 'detail'],
    ['admin', 'audit'],
  ],
  /** Suspended, reinstated or the withdrawal lock lifted: the member, the search, the queue's flag and lane. */
  memberStatus: (userId: number): QueryKey[] => [
    ['admin', 'member', userId],
    ['admin', 'members'],
    ['admin', 'withdrawals'],
    ['admin', 'audit'],
  ],
  /** A UID unbound by an operator: its holder's page and count of UIDs, the queue, a request about it. */
  unbinding: (userId: number): QueryKey[] => [
    ['admin', 'member', userId],
    ['admin', 'members'],
    ['admin', 'withdrawals'],
    ['admin', 'support', 'detail'],
    ['admin', 'audit'],
  ],
  /**
   * A support request closed, its binding moved or its holder confirmed: the queue, both members (the
   * holder and the claimant), their UID counts, the withdrawals the freeze or hold kept from the lane.
   */
  supportDecision: (): QueryKey[] => [
    ['admin', 'support', 'list'],
    ['admin', 'member'],
    ['admin', 'members'],
    ['admin', 'withdrawals'],
    ['admin', 'audit'],
  ],
} as const;

/** Invalidates the given views (CHANGED_BY) after a decision; resolves once those on screen reloaded. */
export function useRefreshAfterDecision() {
  const client = useQueryClient();
  return async (keys: readonly QueryKey[]) => {
    await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
  };
}
