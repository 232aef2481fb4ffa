import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';
import { checkAllInvariants } from './cashback.check.js';

const database = databaseBeforeMigration('invite_bonus_totals');

describe('migrations 0033 and 0034 (invite bonuses kept per inviter and friend, rewards counted per member)', () => {
  it('sums the bonuses booked before it per friend, then adds what each later statement books', async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`
      insert into users (id, user_code, invite_code, created_at) values
        (1, 'U1', 'I1', '2026-01-01'), (2, 'U2', 'I2', '2026-01-01'), (3, 'U3', 'I3', '2026-01-01'),
        (4, 'U4', 'I4', '2026-01-01')`);
    // Inviter 1 earned from friends 2 (twice) and 3; inviter 4 from friend 2 is another pair; a reward of
    // another kind is not an invite bonus.
    await db.execute(sql`
      insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at) values
        (1, 'inviteBonus', 500000, 2, 'k1', '2026-01-02'),
        (1, 'inviteBonus', 250000, 2, 'k2', '2026-01-03'),
        (1, 'inviteBonus', 100000, 3, 'k2', '2026-01-03'),
        (4, 'inviteBonus', 70000, 2, 'k3', '2026-01-03'),
        (1, 'promotion', 900000, 3, 'k4', '2026-01-03')`);

    await database.migrateRest();

    const totals = async () =>
      (
        await db.execute(sql`
          select inviter_id::int as inviter, friend_id::int as friend, amount_micro::text as amount
          from invite_bonus_totals order by 1, 2`)
      ).rows;
    expect(await totals()).toEqual([
      { inviter: 1, friend: 2, amount: '750000' },
      { inviter: 1, friend: 3, amount: '100000' },
      { inviter: 4, friend: 2, amount: '70000' },
    ]);
    const counts = async () =>
      (await db.execute(sql`select user_id::int as member, rewards::int from event_reward_counts order by 1`))
        .rows;
    // Every kind counts: the promotion is one of member 1's rewards.
    expect(await counts()).toEqual([
      { member: 1, rewards: 4 },
      { member: 4, rewards: 1 },
    ]);

    // One statement books bonuses for a known pair and a new one: the first adds, the second appears.
    await db.execute(sql`
      insert into event_rewards (user_id, kind, amount_micro, source_user_id, journal_key, created_at) values
        (1, 'inviteBonus', 50000, 3, 'k5', '2026-01-04'),
        (1, 'inviteBonus', 10000, 3, 'k5', '2026-01-04'),
        (4, 'inviteBonus', 30000, 3, 'k6', '2026-01-04')`);
    expect(await totals()).toEqual([
      { inviter: 1, friend: 2, amount: '750000' },
      { inviter: 1, friend: 3, amount: '160000' },
      { inviter: 4, friend: 2, amount: '70000' },
      { inviter: 4, friend: 3, amount: '30000' },
    ]);

    expect(await counts()).toEqual([
      { member: 1, rewards: 6 },
      { member: 4, rewards: 2 },
    ]);

    // ledger:check names a kept figure that no longer equals the rewards' sum, and a count that is off.
    await db.execute(
      sql`update invite_bonus_totals set amount_micro = amount_micro + 1 where inviter_id = 4 and friend_id = 3`,
    );
    await db.execute(sql`update event_reward_counts set rewards = rewards - 1 where user_id = 1`);
    const problems = await checkAllInvariants(db);
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          invariant: expect.stringContaining('invite_bonus_totals'),
          detail: expect.stringContaining('inviter 4 friend 3'),
        },
        {
          invariant: expect.stringContaining('event_reward_counts'),
          detail: expect.stringContaining('member 1'),
        },
      ]),
    );
  });
});
