import {
  ADMIN_API,
  type ExplainTransferRequest,
  PayoutReconciliationSchema,
  PayoutWalletSchema,
  SendWithdrawalAnswerSchema,
  type SendWithdrawalRequest,
  SendWithdrawalsAnswerSchema,
  type SendWithdrawalsRequest,
} from '@elex/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../shared/api/api-client';

/** How often the withdrawals page asks again while a payout is on its way (Polygon blocks: ~2 s). */
export const PAYOUT_WATCH_MS = 5_000;

/** `/elex/admin/payoutWallet {}`: the hot wallet's balances and what awaits payment; `{enabled: false}` without a key. */
const payoutWalletQuery = (watching: boolean) =>
  queryOptions({
    queryKey: ['admin', 'payoutWallet'],
    // Silent: asked every few seconds while a payout is on its way; the page says it once if it fails.
    queryFn: () => apiCall(ADMIN_API.adminPayoutWallet, {}, { schema: PayoutWalletSchema, silent: true }),
    // Also while the wallet itself says payouts are on their way (the last one may have left the page).
    refetchInterval: (query) =>
      watching || (query.state.data?.enabled && query.state.data.inFlight.count > 0)
        ? PAYOUT_WATCH_MS
        : false,
  });
export const usePayoutWallet = (watching = false) => useQuery(payoutWalletQuery(watching));

/** `/elex/admin/sendWithdrawal {id}`: signs, records and broadcasts one withdrawal's USDT transfer. */
export const sendWithdrawal = (request: SendWithdrawalRequest) =>
  apiCall(ADMIN_API.adminSendWithdrawal, request, { schema: SendWithdrawalAnswerSchema });

/** `/elex/admin/sendWithdrawals {ids}`: the same for several, one after the other; each answers alone. */
export const sendWithdrawals = (request: SendWithdrawalsRequest) =>
  apiCall(ADMIN_API.adminSendWithdrawals, request, { schema: SendWithdrawalsAnswerSchema });

/** `/elex/admin/payoutReconciliation {}`: reads the wallet's new transfers on chain, then compares them with the payouts. */
const payoutReconciliationQuery = () =>
  queryOptions({
    queryKey: ['admin', 'payoutReconciliation'],
    queryFn: () =>
      apiCall(ADMIN_API.adminPayoutReconciliation, {}, { schema: PayoutReconciliationSchema, silent: true }),
  });
export const usePayoutReconciliation = (enabled: boolean) =>
  useQuery({ ...payoutReconciliationQuery(), enabled });

/** `/elex/admin/explainTransfer {txHash, reason}`: a transfer that is no payout, explained and audited. */
export const explainTransfer = (request: ExplainTransferRequest) =>
  apiCall(ADMIN_API.adminExplainTransfer, request);
