import { State } from '@elex/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { rowsOf } from '../../db/rows.js';
import { deferred } from '../../test/deferred.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { newMember } from '../admin/test-support.js';
import { socialAccounts } from './tasks.tables.js';

/**
 * A member claims the Telegram task (paid for the verified id) while, on another instance, they send
 * a new Telegram id. The claim must not pay for one id while the other is left stored: either the
 * change comes first (the claim then sees an unverified id and pays nothing) or the claim does (the
 * change is refused with 'socialAccountLocked'). PostgreSQL only (TEST_DATABASE_URL): on PGlite one
 * connection runs one transaction at a time.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let race: RaceApps;
beforeAll(async () => {
  race = await openRaceApps();
});
afterAll(() => race?.close());

const OLD_ID = '700000101';
const NEW_ID = '700000202';

function call(app: App, token: string, url: string, payload: object) {
  return app
    .inject({ method: 'POST', url, headers: { 'content-type': 'application/json', token }, payload })
    .then((res) => res.json() as { state: number; message: string });
}

async function lockWaiters(app: App): Promise<number> {
  const [row] = rowsOf<{ count: string | number }>(
    await app.deps.db.execute(
      sql`select count(*) as count from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    ),
  );
  return Number(row?.count ?? 0);
}

describe('claiming a social task while changing its account id (found in review)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'keeps the id the claim was paid for and refuses the change with a clear message',
    async () => {
      const { ctx, apps } = race;
      const [first, second] = [apps[0] as App, apps.at(-1) as App];
      const member = await newMember(ctx, 'social-race');
      const now = ctx.clock.now();
      await ctx.db.insert(socialAccounts).values({
        userId: member.userId,
        network: 'telegram',
        accountId: OLD_ID,
        verifiedAt: now,
        updatedAt: now,
      });

      // Holds the claim at its last step: an uncommitted payout of the member for the task makes the
      // claim's own payout insert wait (the (member, task) key) until this transaction rolls back.
      const held = deferred();
      const released = deferred();
      const holder = second.deps.db
        .transaction(async (tx) => {
          await tx.execute(
            sql`insert into task_payouts (task_id, account, user_id, paid_at)
                values ('telegram', 'telegram:holder', ${member.userId}, ${now})`,
          );
          held.resolve();
          await released.promise;
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await held.promise;

      const claim = call(first, member.token, '/elex/exchange/receiveScore', { taskId: 'telegram' });
      for (let tries = 0; tries < 200 && (await lockWaiters(first)) < 1; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The change, on the other instance, while the claim has read the id and not committed.
      let changeDone = false;
      const change = call(second, member.token, '/elex/exchange/fetchMetiaTaskStatus', {
        taskId: 'telegram',
        accountId: NEW_ID,
      }).finally(() => {
        changeDone = true;
      });
      for (let tries = 0; tries < 200 && !changeDone && (await lockWaiters(first)) < 2; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      released.resolve();
      await holder;
      const [claimed, changed] = await Promise.all([claim, change]);

      expect(claimed).toMatchObject({ state: 0 });
      const [stored] = await ctx.db
        .select()
        .from(socialAccounts)
        .where(and(eq(socialAccounts.userId, member.userId), eq(socialAccounts.network, 'telegram')));
      expect(stored).toMatchObject({ accountId: OLD_ID });
      expect(changed).toMatchObject({
        state: State.Refused,
        message: 'This account has earned the points of this task and can no longer be changed',
      });
      expect(stored?.verifiedAt).not.toBeNull();
      const payouts = rowsOf<{ account: string }>(
        await ctx.db.execute(sql`select account from task_payouts where user_id = ${member.userId}`),
      );
      expect(payouts).toEqual([{ account: `telegram:${OLD_ID}` }]);
    },
  );
});
