import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveOwnersOf } from '../bindings/uid-owners.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { accountCode } from './accounts.js';
import { lockAccountRows } from './ledger.repository.js';

/**
 * Issue 13: PostgreSQL takes at most 65,535 parameters a statement. A settlement of one exchange can
 * credit more UIDs than that (a 90-day backfill of ~730 active UIDs is 65,700 daily records), and it
 * locks their accounts and asks who holds them: both must work at that size.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const MANY = 70_000;
const uids = Array.from({ length: MANY }, (_, n) => `LIMIT${n}`);

describe('queries whose parameters grow with the data', () => {
  it('lock 70,000 accounts in one transaction', async () => {
    await expect(
      ctx.db.transaction((tx) =>
        lockAccountRows(
          tx,
          uids.map((uid) => accountCode.cashback(BITGET, uid)),
        ),
      ),
    ).resolves.toBeUndefined();
  });

  it('find the holders of 70,000 UIDs', async () => {
    expect((await liveOwnersOf(ctx.db, BITGET, uids, new Date())).size).toBe(0);
  });
});
