import type { DepositRecordPage, WithdrawalStatus } from '@elex/contract';
import { answerKind, keptPageForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { payoutProgress } from '../payouts/payouts.service.js';
import { memberWithdrawals } from './withdrawals.service.js';

type DepositRecordQuery = { status?: WithdrawalStatus | undefined; page: number; pageSize: number };

/** A record with its payout is ~600 bytes as JSON; 20,000 pages and 64 MiB at most per process. */
const DEPOSIT_PAGES = answerKind<DepositRecordPage>('depositRecord', 20_000, {
  maxBytes: 64 * 1024 * 1024,
  sizeOf: (value) => 200 + value.records.length * 600,
});

/**
 * /elex/exchange/depositRecord: the member's withdrawals, newest first, each with its payout's
 * progress (the payouts module sits above withdrawals, so the two meet here). Pages 1 to 3 are kept
 * in this process by member and request until the member changes: a withdrawal added or decided, a
 * payout's or an attempt's change of what is shown notify the withdrawal's member
 * (migration 0054_member_notify_lists). Nothing in it depends on the clock; the confirmations needed
 * and the explorer address are this process's configuration. Kept values are frozen.
 */
export async function depositRecord(
  deps: AppDeps,
  userId: number,
  query: DepositRecordQuery,
): Promise<DepositRecordPage> {
  return keptPageForMember(
    deps.memberAnswers,
    DEPOSIT_PAGES,
    userId,
    { page: query.page, pageSize: query.pageSize, filter: [query.status ?? null] },
    () => readDepositRecord(deps, userId, query),
  );
}

async function readDepositRecord(
  deps: AppDeps,
  userId: number,
  query: DepositRecordQuery,
): Promise<DepositRecordPage> {
  const page = await memberWithdrawals(deps, userId, query);
  const progress = await payoutProgress(
    deps,
    page.records.map((record) => Number(record.id)),
  );
  const records = page.records.map((record) => {
    const payout = progress.get(Number(record.id));
    return Object.freeze({ ...record, payout: payout ? Object.freeze(payout) : null });
  });
  return Object.freeze({ ...page, records: Object.freeze(records) }) as DepositRecordPage;
}
