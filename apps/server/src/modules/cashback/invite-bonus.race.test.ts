import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { rowsOf } from '../../db/rows.js';
import { deferred } from '../../test/deferred.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { users } from '../auth/auth.tables.js';
import { accountCode, balancesOf } from '../ledger/ledger.service.js';
import {
  ADDRESS,
  addToRoster,
  BITGET,
  creditCashback,
  memberCall,
  registerMember,
  usdt,
} from '../withdrawals/test-support.js';
import { eventRewards } from './cashback.tables.js';
import { nextUid } from './test-support.js';

/**
 * Settlement books an invite bonus to the friend's inviter. An account deletion holds the inviter's
 * rewards account while it forfeits it, then marks the account deleted; a settlement that read the
 * inviter as live just before must not book a bonus onto the deleted account once the lock is free.
 * PostgreSQL only (TEST_DATABASE_URL): on PGlite one connection runs one transaction at a time.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let race: RaceApps;
beforeAll(async () => {
  race = await openRaceApps();
});
afterAll(() => race?.close());

describe('an invite bonus settling while its inviter deletes the account (found in review)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'books nothing to the deleted account: the friend is credited, the inviter earns no more',
    async () => {
      const { ctx, apps } = race;
      const inviter = await registerMember(ctx);
      const friend = await registerMember(ctx);
      await ctx.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, friend.userId));
      const uid = nextUid('D');
      await addToRoster(ctx, BITGET, uid);
      expect(
        await memberCall(ctx, friend, '/elex/user/bindExchangeUid', {
          platId: BITGET,
          uid,
          address: ADDRESS,
        }),
      ).toMatchObject({ state: 0 });
      // A first record pays the inviter a bonus of 1 (10 %): their rewards account exists.
      await creditCashback(ctx, BITGET, uid, '10');
      const rewards = accountCode.rewards(inviter.userId);
      expect((await balancesOf(ctx.db, [rewards])).get(rewards)).toBe(usdt('1'));

      // The deletion, on the other instance, in the order the real one takes: the rewards account
      // held, then the member's row marked deleted; it commits once the settlement waits for it.
      const held = deferred();
      const released = deferred();
      const deletion = (apps.at(-1) as App).deps.db.transaction(async (tx) => {
        await tx.execute(sql`select id from ledger_accounts where code = ${rewards} for update`);
        await tx.execute(sql`update users set deleted_at = now() where id = ${inviter.userId}`);
        held.resolve();
        await released.promise;
      });
      await held.promise;
      const settling = creditCashback(ctx, BITGET, uid, '20');
      // Commit only once the settlement waits for a lock the deletion holds.
      for (let tries = 0; tries < 200; tries += 1) {
        const [waiting] = rowsOf<{ count: string | number }>(
          await ctx.db.execute(
            sql`select count(*) as count from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
          ),
        );
        if (Number(waiting?.count) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      released.resolve();
      await deletion;
      await settling;

      expect((await balancesOf(ctx.db, [rewards])).get(rewards)).toBe(usdt('1'));
      const bonuses = await ctx.db
        .select({ amount: eventRewards.amountMicro })
        .from(eventRewards)
        .where(eq(eventRewards.userId, inviter.userId));
      expect(bonuses).toHaveLength(1);
      expect(
        (await balancesOf(ctx.db, [accountCode.cashback(BITGET, uid)])).get(
          accountCode.cashback(BITGET, uid),
        ),
      ).toBe(usdt('30'));
    },
  );
});
