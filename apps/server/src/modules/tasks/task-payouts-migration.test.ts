import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';

const database = databaseBeforeMigration('task_payouts');

describe('migration 0012 (task payouts)', () => {
  it('records the account of every claim paid before it, locks paid XME bindings and gives Discord its app link', async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`
      insert into users (id, user_code, invite_code, created_at) values
        (1, 'U1', 'I1', '2026-01-01'), (2, 'U2', 'I2', '2026-01-01'), (3, 'U3', 'I3', '2026-01-01')`);
    await db.execute(sql`
      insert into exchanges (id, name, abbreviation, logo, position, score_tenths, cash_rate_bps,
        speed_up_cash_rate_bps, maker_fee_ppm, taker_fee_ppm, vip_rule, signup_url, referral_code,
        new_user_discount_percent, new_user_discount_days, fees_checked_on)
      values (7, 'Ex', 'EX', 'ex.png', 1, 45, 1000, 1500, 200, 500, 'either', 'https://ex.test', 'CODE', 20, 90, '2026-01-01')`);
    await db.execute(sql`
      insert into social_accounts (user_id, network, account_id, verified_at, updated_at) values
        (1, 'telegram', '700000001', '2026-01-02', '2026-01-02'),
        (2, 'telegram', '700000002', '2026-01-02', '2026-01-02')`);
    await db.execute(sql`
      insert into xme_bindings (user_id, xme_uid, bound_at) values (1, 'Xme-Paid', '2026-01-02'), (2, 'xme-free', '2026-01-02')`);
    // Member 1's first UID was bound before the claim, the second after it.
    await db.execute(sql`
      insert into exchange_bindings (user_id, plat_id, uid, address, bound_at, unbound_at) values
        (1, 7, 'OLD1', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '2026-01-02', '2026-01-04'),
        (1, 7, 'LATE', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '2026-01-05', null),
        (3, 7, 'NEW3', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '2026-01-02', null)`);
    // Member 1 claimed the Telegram, XME and UID tasks; member 2 only verified; member 3 has not claimed.
    await db.execute(sql`
      insert into points_entries (user_id, currency, amount, reason, reference, created_at) values
        (1, 'points', 50, 'task', 'telegram', '2026-01-03'),
        (1, 'points', 50, 'task', 'bindXme', '2026-01-03'),
        (1, 'points', 100, 'task', 'bindUid', '2026-01-03'),
        (1, 'points', 10, 'checkIn', '2026-01-03', '2026-01-03')`);

    await database.migrateRest();

    const payouts = await db.execute(
      sql`select task_id, account, user_id from task_payouts order by task_id, account`,
    );
    expect(payouts.rows).toEqual([
      { task_id: 'bindUid', account: '7:OLD1', user_id: 1 },
      { task_id: 'bindXme', account: 'xme:xme-paid', user_id: 1 },
      { task_id: 'telegram', account: 'telegram:700000001', user_id: 1 },
    ]);
    const locks = await db.execute(
      sql`select user_id, locked_at = timestamptz '2026-01-03T00:00:00Z' as locked_at_claim from xme_bindings order by user_id`,
    );
    expect(locks.rows).toEqual([
      { user_id: 1, locked_at_claim: true },
      { user_id: 2, locked_at_claim: null },
    ]);
    const discord = await db.execute(sql`select app_link from task_definitions where id = 'discord'`);
    expect(discord.rows).toEqual([{ app_link: 'discord://-/invite/elexcashback' }]);
  });
});
