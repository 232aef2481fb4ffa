import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';
import { checkAllInvariants } from './cashback.check.js';

const database = databaseBeforeMigration('invite_bonus_binding_totals');

describe('migration 0037 (invite bonuses kept per friend binding and inviter)', () => {
  it('sums the bonuses booked before it per binding, with the part inside the hold, then adds each later statement', async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`
      insert into users (id, user_code, invite_code, created_at) values
        (1, 'U1', 'I1', '2026-01-01'), (2, 'U2', 'I2', '2026-01-01'), (3, 'U3', 'I3', '2026-01-01')`);
    // The bindings' exchange is not what this migration is about: its row is left out.
    await db.execute(sql`set session_replication_role = replica`);
    await db.execute(sql`
      insert into exchange_bindings (id, user_id, plat_id, uid, address, bound_at) values
        (10, 2, 4, 'UID-A', '0xa', '2026-01-01'), (11, 3, 4, 'UID-B', '0xb', '2026-01-01'),
        (12, 3, 4, 'UID-C', '0xc', '2026-01-05')`);
    await db.execute(sql`set session_replication_role = origin`);
    // Binding 10 paid inviter 1 twice inside its hold and once after it; binding 11 only after its
    // hold; a bonus from before bindings were recorded and a reward of another kind are not kept.
    await db.execute(sql`
      insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at,
        binding_id, hold_ends_at) values
        (1, 'inviteBonus', 500000, 2, 'k1', '2026-01-02', 10, '2026-01-15'),
        (1, 'inviteBonus', 250000, 2, 'k2', '2026-01-03', 10, '2026-01-15'),
        (1, 'inviteBonus', 100000, 2, 'k3', '2026-01-20', 10, null),
        (1, 'inviteBonus', 70000, 3, 'k3', '2026-01-20', 11, null),
        (1, 'inviteBonus', 40000, 3, 'k0', '2025-12-20', null, null),
        (1, 'promotion', 900000, null, 'k4', '2026-01-03', null, null)`);

    await database.migrateRest();

    const kept = async () =>
      (
        await db.execute(sql`
          select binding_id::int as binding, inviter_id::int as inviter, amount_micro::text as amount,
            held_micro::text as held, to_char(hold_ends_at at time zone 'UTC', 'YYYY-MM-DD') as until
          from invite_bonus_binding_totals order by 1, 2`)
      ).rows;
    expect(await kept()).toEqual([
      { binding: 10, inviter: 1, amount: '850000', held: '750000', until: '2026-01-15' },
      { binding: 11, inviter: 1, amount: '70000', held: '0', until: null },
    ]);

    // One statement books bonuses for a known binding and a new one: the first adds, the second appears.
    await db.execute(sql`
      insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at,
        binding_id, hold_ends_at) values
        (1, 'inviteBonus', 30000, 2, 'k5', '2026-01-21', 10, null),
        (1, 'inviteBonus', 20000, 3, 'k5', '2026-01-06', 12, '2026-01-19'),
        (1, 'inviteBonus', 5000, 3, 'k5', '2026-01-07', 12, '2026-01-19')`);
    expect(await kept()).toEqual([
      { binding: 10, inviter: 1, amount: '880000', held: '750000', until: '2026-01-15' },
      { binding: 11, inviter: 1, amount: '70000', held: '0', until: null },
      { binding: 12, inviter: 1, amount: '25000', held: '25000', until: '2026-01-19' },
    ]);
    // A later statement inside binding 12's hold adds to its held part as well.
    await db.execute(sql`
      insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at,
        binding_id, hold_ends_at) values (1, 'inviteBonus', 1000, 3, 'k6', '2026-01-08', 12, '2026-01-19')`);
    expect((await kept())[2]).toEqual({
      binding: 12,
      inviter: 1,
      amount: '26000',
      held: '26000',
      until: '2026-01-19',
    });
    // The rewards here have no journals (other invariants see that): only this figure's is looked at.
    const keptProblems = async () =>
      (await checkAllInvariants(db)).filter((problem) =>
        problem.invariant.includes('(invite_bonus_binding_totals)'),
      );
    expect(await keptProblems()).toEqual([]);

    // ledger:check names a binding whose kept figure no longer equals its rewards: held, or hold end.
    await db.execute(
      sql`update invite_bonus_binding_totals set held_micro = held_micro - 1 where binding_id = 12`,
    );
    await db.execute(sql`update invite_bonus_binding_totals set hold_ends_at = null where binding_id = 10`);
    expect(await keptProblems()).toEqual([
      {
        invariant: expect.stringContaining('invite_bonus_binding_totals'),
        detail: expect.stringMatching(/binding 10 inviter 1.*binding 12 inviter 1/s),
      },
    ]);
  });
});
