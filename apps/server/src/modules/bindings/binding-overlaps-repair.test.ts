import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { databaseBeforeMigrationOnEither, runMigrationAgain } from '../../test/migrations-before.js';
import { checkBindingInvariants } from './bindings.check.js';
import { findLiveBindingWithHistory } from './bindings.repository.js';

/**
 * Migration 0044_binding_overlaps on the suite's engine: not named `*-migration.test.ts`, which the
 * PostgreSQL pass skips, because this migration's work is SQL over the data (a window, an update) that
 * must do the same on both engines.
 */
const TAG = 'binding_overlaps';

const database = databaseBeforeMigrationOnEither(TAG);

const at = (time: string) => new Date(time);

/** [id, member, uid, bound, unbound, reason]: the UIDs' bindings as a deployment stored them. */
type Binding = [number, number, string, string, string | null, string | null];
const STORED: Binding[] = [
  // The next holder bound on an instance whose clock was 800 ms behind the deleting one's.
  [1, 1, 'OVERLAP', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:01.000Z', 'accountDeleted'],
  [2, 2, 'OVERLAP', '2026-02-01T00:00:00.200Z', null, null],
  // A binding that began and ended inside the previous one (unbound by an operator at once), then a
  // third that also started before the first ended.
  [3, 1, 'INSIDE', '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:05.000Z', 'accountDeleted'],
  [4, 2, 'INSIDE', '2026-03-01T00:00:01.000Z', '2026-03-01T00:00:03.000Z', 'wrongMember'],
  [5, 3, 'INSIDE', '2026-03-01T00:00:04.000Z', null, null],
  // Sound: one starting exactly at the previous end, one bound once, a UID with gaps between holders.
  [6, 1, 'TOUCH', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'accountDeleted'],
  [7, 2, 'TOUCH', '2026-02-01T00:00:00.000Z', null, null],
  [8, 3, 'ONCE', '2026-01-05T00:00:00.000Z', null, null],
  [9, 1, 'GAPS', '2026-01-01T00:00:00.000Z', '2026-01-10T00:00:00.000Z', 'wrongMember'],
  [10, 2, 'GAPS', '2026-01-20T00:00:00.000Z', '2026-01-25T00:00:00.000Z', 'accountDeleted'],
  [11, 3, 'GAPS', '2026-02-01T00:00:00.000Z', null, null],
];

async function bindingsOf(db: Database) {
  return rowsOf<{ id: string; bound_at: Date | string; unbound_at: Date | string | null }>(
    await db.execute(sql`select id, bound_at, unbound_at from exchange_bindings order by id`),
  ).map((row) => [
    Number(row.id),
    new Date(row.bound_at).toISOString(),
    row.unbound_at === null ? null : new Date(row.unbound_at).toISOString(),
  ]);
}

async function auditOf(db: Database) {
  return rowsOf<{ actor: string; action: string; target: string; before: unknown; after: unknown }>(
    await db.execute(sql`select actor, action, target, before, after from audit_log order by id`),
  );
}

describe(`migration ${TAG} (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it("moves a binding's start up to the UID's previous end, so its holder no longer sees the deleted holder's history; leaves sound bindings alone; a second run changes nothing", async () => {
    const db = await database.migrateBefore();
    await db.execute(sql`
      insert into exchanges (id, name, abbreviation, logo, position, score_tenths, cash_rate_bps,
        speed_up_cash_rate_bps, maker_fee_ppm, taker_fee_ppm, vip_rule, signup_url_template, referral_code,
        new_user_discount_percent, new_user_discount_days, status)
      values (1, 'Ex1', 'EX1', '/logos/ex.svg', 1, 90, 4000, 5000, 200, 500, 'either',
        'https://x.example/r/{code}', 'CODE', 20, 90, 'live')`);
    await db.execute(sql`
      insert into users (id, user_code, invite_code, created_at) values
        (1, 'U1', 'I1', '2025-12-01'), (2, 'U2', 'I2', '2025-12-01'), (3, 'U3', 'I3', '2025-12-01')`);
    for (const [id, userId, uid, bound, unbound, reason] of STORED) {
      await db.execute(sql`
        insert into exchange_bindings (id, user_id, plat_id, uid, address, bound_at, unbound_at, unbind_reason)
        values (${id}, ${userId}, 1, ${uid}, '0x0000000000000000000000000000000000000001', ${bound},
          ${unbound}, ${reason})`);
    }
    // As stored, the next holder's view starts nowhere: the deletion ended after the binding began, so
    // the member saw the deleted holder's whole history. The operator check names the three.
    expect((await findLiveBindingWithHistory(db, 1, 'OVERLAP'))?.historyFrom).toBeNull();
    const [found] = await checkBindingInvariants(db);
    expect(found?.detail).toMatch(
      /^3 found: UID 1:INSIDE binding 4 \(member 2\) starts 2026-03-01T00:00:01.000Z/,
    );
    expect(found?.detail).toContain(
      'UID 1:OVERLAP binding 2 (member 2) starts 2026-02-01T00:00:00.200Z, before an earlier binding ended 2026-02-01T00:00:01.000Z',
    );

    await database.migrateRest();

    const repaired = [
      [1, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:01.000Z'],
      // Started at the deletion's end.
      [2, '2026-02-01T00:00:01.000Z', null],
      [3, '2026-01-01T00:00:00.000Z', '2026-03-01T00:00:05.000Z'],
      // Wholly inside the first: it held the UID for no time, at that end.
      [4, '2026-03-01T00:00:05.000Z', '2026-03-01T00:00:05.000Z'],
      [5, '2026-03-01T00:00:05.000Z', null],
      ...STORED.slice(5).map(([id, , , bound, unbound]) => [id, bound, unbound]),
    ];
    expect(await bindingsOf(db)).toEqual(repaired);
    // Where the holders' views start now: after the deletion, as for a binding made today.
    expect((await findLiveBindingWithHistory(db, 1, 'OVERLAP'))?.historyFrom).toEqual(
      at('2026-02-01T00:00:01.000Z'),
    );
    expect((await findLiveBindingWithHistory(db, 1, 'INSIDE'))?.historyFrom).toEqual(
      at('2026-03-01T00:00:05.000Z'),
    );
    expect((await findLiveBindingWithHistory(db, 1, 'TOUCH'))?.historyFrom).toEqual(
      at('2026-02-01T00:00:00.000Z'),
    );
    expect((await findLiveBindingWithHistory(db, 1, 'GAPS'))?.historyFrom).toEqual(
      at('2026-01-25T00:00:00.000Z'),
    );
    expect(await checkBindingInvariants(db)).toEqual([]);
    const audit = await auditOf(db);
    expect(audit).toEqual(
      [2, 4, 5].map((id) => {
        const [, userId, uid, bound, unbound] = STORED[id - 1] as Binding;
        const [, boundAfter, unboundAfter] = repaired[id - 1] as [number, string, string | null];
        const times = (boundAt: string, unboundAt: string | null) => ({
          bindingId: id,
          userId,
          boundAt,
          unboundAt,
        });
        return {
          actor: 'migration:binding_overlaps',
          action: 'binding.moveStart',
          target: `binding:1:${uid}`,
          before: times(bound, unbound),
          after: times(boundAfter, unboundAfter),
        };
      }),
    );

    await runMigrationAgain(db, TAG);
    expect(await bindingsOf(db)).toEqual(repaired);
    expect(await auditOf(db)).toEqual(audit);
  });
});
