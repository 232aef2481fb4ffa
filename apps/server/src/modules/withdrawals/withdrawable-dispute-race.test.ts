import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectWithdrawableSummary } from '../../read-models/withdrawable-summary.js';
import {
  eventually,
  type MemberInstances,
  notificationsSettled,
  openMemberInstances,
} from '../../test/member-instances.js';
import { users } from '../auth/auth.tables.js';
import { type CashbackTestContext, nextUid } from '../cashback/test-support.js';
import {
  ADDRESS,
  addToRoster,
  BITGET,
  creditCashback,
  fundedMember,
  memberCall,
  registerMember,
  type TestMember,
} from './test-support.js';

/**
 * A dispute of a friend's UID whose statement runs before the friend's first bonus to the inviter is
 * settled, and commits after the inviter read withdrawable: its trigger named no inviter (no
 * `invite_bonus_binding_totals` row yet) and its UID token (0055) covers only the UID's holders'
 * answers. The inviter's kept withdrawable must still show the bonus held by the dispute.
 */

type Answer = {
  rewards: string;
  rewardsHeld: { amount: string; until: string | null; disputed: boolean } | null;
};

const withdrawable = async (ctx: CashbackTestContext, member: Pick<TestMember, 'token'>) =>
  (await memberCall(ctx, member, '/elex/user/withdrawable')).content as Answer;

describe('a dispute racing the first bonus of a friend’s UID', () => {
  let instances: MemberInstances;
  let a: CashbackTestContext;
  let b: CashbackTestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(2);
    [a, b] = instances.contexts as [CashbackTestContext, CashbackTestContext];
  });
  afterAll(() => instances.close());

  it.runIf(process.env.TEST_DATABASE_URL)(
    'holds the inviter’s bonus on both instances once the dispute commits',
    async () => {
      const inviter = await fundedMember(a, { cashback: '45' });
      const friend = await registerMember(a);
      await a.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, friend.userId));
      const uid = nextUid('R');
      await addToRoster(a, BITGET, uid);
      expect(
        await memberCall(a, friend, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }),
      ).toMatchObject({ state: 0 });
      // Inside the binding's ownership hold: its bonus is held, and a dispute holds it until decided.
      const claimant = await registerMember(a);

      const { connectionString } = (a.db as unknown as { $client: pg.Pool }).$client.options;
      const writer = new pg.Client({ connectionString });
      await writer.connect();
      try {
        await writer.query('begin');
        const now = a.clock.now().toISOString();
        await writer.query(
          `insert into support_requests (user_id, kind, plat_id, uid, status, created_at, updated_at)
           values ($1, 'uidBoundByOther', $2, $3, 'open', $4::timestamptz, $4::timestamptz)`,
          [claimant.userId, BITGET, uid, now],
        );
        // The friend's first settlement pays the inviter (it does not see the uncommitted dispute).
        await creditCashback(a, BITGET, uid, '50');
        await notificationsSettled();
        const before = await withdrawable(a, inviter);
        expect(await withdrawable(b, inviter)).toEqual(before);
        expect(before.rewardsHeld).toMatchObject({ amount: '5.000000', disputed: false });
        await writer.query('commit');
      } finally {
        await writer.query('rollback').catch(() => {});
        await writer.end();
      }
      // What the database says now, read uncached: the bonus is held by the dispute.
      const fresh = await selectWithdrawableSummary(a.db, inviter.userId, a.clock.now());
      expect(fresh.heldBonuses).toMatchObject({ heldMicro: 5_000_000n, disputed: true });
      for (const ctx of [a, b]) {
        const shown = await eventually(
          () => withdrawable(ctx, inviter),
          (answer) => answer.rewardsHeld?.disputed === true,
        );
        expect(shown.rewardsHeld).toMatchObject({ amount: '5.000000', disputed: true });
      }
    },
  );
});
