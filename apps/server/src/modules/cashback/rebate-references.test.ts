import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import type { Database } from '../../db/database.js';
import { rowsOf } from '../../db/rows.js';
import { deferred } from '../../test/deferred.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { runCsvImport } from '../admin/imports.service.js';
import { bindExchangeUid } from '../bindings/bindings.service.js';
import { checkLedgerInvariants } from '../ledger/ledger.check.js';
import { checkAllInvariants } from './cashback.check.js';
import { ingestReferrals } from './ingest.service.js';
import { BITGET, type CashbackTestContext, createMember, nextUid } from './test-support.js';

/**
 * A rebate record names an exchange that exists and, once credited, a journal that exists; an
 * exchange its records name is neither removed nor renumbered. Migration 0049 moved these guarantees
 * from two foreign keys (checked once per stored row) to statement triggers over the distinct ids a
 * statement stores (docs/decisions.md, "The references of `rebates` checked once per statement"):
 * these tests pin what the keys did. On PostgreSQL two app instances on one database, so the lock
 * between a record's insert and its exchange's removal is exercised; on PGlite one.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let race: RaceApps;
let ctx: CashbackTestContext;
let apps: App[];
beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
});
afterAll(() => race?.close());

const PLAT_KEY = 'rebates_plat_id_exchanges_id_fk';
const JOURNAL_KEY = 'rebates_journal_id_ledger_journals_id_fk';
const NO_EXCHANGE = 987_654;
const NO_JOURNAL = 987_654_321;

/** The SQLSTATE and every message down the error's cause chain (drizzle wraps the driver's error). */
async function refusal(run: () => Promise<unknown>): Promise<{ code: string | undefined; text: string }> {
  try {
    await run();
  } catch (error) {
    let code: string | undefined;
    const parts: string[] = [];
    for (let current = error; current; current = (current as { cause?: unknown }).cause) {
      const found = current as { code?: unknown; message?: unknown; detail?: unknown };
      if (typeof found.code === 'string' && /^[0-9A-Z]{5}$/.test(found.code)) code ??= found.code;
      parts.push(String(found.message ?? current), String(found.detail ?? ''));
    }
    return { code, text: parts.join(' <- ') };
  }
  throw new Error('expected the database to refuse');
}

let exchangeCounter = 0;
/** A new exchange, a copy of Bitget under another id and abbreviation, named by nothing yet. */
async function freshExchange(db: Database = ctx.db): Promise<number> {
  exchangeCounter += 1;
  const id = 9_000 + exchangeCounter;
  await db.execute(sql`
    insert into exchanges
    select * from json_populate_record(null::exchanges, (
      select (to_jsonb(e) || jsonb_build_object('id', ${id}::int, 'abbreviation', ${`ZZR${exchangeCounter}`}::text))::json
      from exchanges e where e.id = ${BITGET}))`);
  return id;
}

/** One pending record of a UID's day, stored as the exchanges' API stores it. */
function insertRecord(db: Database, platId: number, uid: string, day = 1) {
  return db.execute(sql`
    insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
      commission_micro, source, source_label, created_at)
    values (${platId}, ${uid}, ${`2026-10-${String(day).padStart(2, '0')}T00:00:00Z`}::timestamptz,
      ${`2026-10-${String(day + 1).padStart(2, '0')}T00:00:00Z`}::timestamptz, 100000000, 2000000, 1000000,
      'api', 'references', now())`);
}

async function recordsOf(uidPrefix: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await ctx.db.execute(sql`select count(*)::int as n from rebates where uid like ${`${uidPrefix}%`}`),
  );
  return row?.n ?? -1;
}

describe('a record names an exchange that exists', () => {
  it('refuses one record naming no exchange', async () => {
    const uid = nextUid('NOPLAT');
    const refused = await refusal(() => insertRecord(ctx.db, NO_EXCHANGE, uid));
    expect(refused.code).toBe('23503');
    expect(refused.text).toContain(PLAT_KEY);
    expect(await recordsOf(uid)).toBe(0);
  });

  it('refuses a statement of many records when one of them names no exchange: none is stored', async () => {
    const prefix = nextUid('MANYPLAT');
    const refused = await refusal(() =>
      ctx.db.execute(sql`
        insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
          commission_micro, source, source_label, created_at)
        select case when n = 250 then ${NO_EXCHANGE}::int else ${BITGET}::int end, ${prefix} || n,
          '2026-10-01T00:00:00Z'::timestamptz, '2026-10-02T00:00:00Z'::timestamptz, 100000000, 2000000,
          1000000, 'api', 'references', now()
        from generate_series(1, 500) n`),
    );
    expect(refused.code).toBe('23503');
    expect(refused.text).toContain(PLAT_KEY);
    expect(await recordsOf(prefix)).toBe(0);

    // The same statement with every exchange present stores all 500.
    await ctx.db.execute(sql`
      insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
        commission_micro, source, source_label, created_at)
      select ${BITGET}, ${prefix} || n, '2026-10-01T00:00:00Z'::timestamptz, '2026-10-02T00:00:00Z'::timestamptz,
        100000000, 2000000, 1000000, 'api', 'references', now()
      from generate_series(1, 500) n`);
    expect(await recordsOf(prefix)).toBe(500);
  });
});

describe('a credited record names a journal that exists', () => {
  it('refuses a record stored credited by no journal', async () => {
    const uid = nextUid('NOJRN');
    const refused = await refusal(() =>
      ctx.db.execute(sql`
        insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
          commission_micro, status, cash_rate_bps, amount_micro, source, source_label, created_at,
          settled_at, journal_id)
        values (${BITGET}, ${uid}, '2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z', 100000000, 2000000,
          1000000, 'completed', 5000, 1000000, 'csv', 'references.csv', now(), now(), ${NO_JOURNAL})`),
    );
    expect(refused.code).toBe('23503');
    expect(refused.text).toContain(JOURNAL_KEY);
    expect(await recordsOf(uid)).toBe(0);
  });

  it('refuses settling a record onto no journal: it stays pending', async () => {
    const uid = nextUid('SETTLENOJRN');
    await insertRecord(ctx.db, BITGET, uid);
    const refused = await refusal(() =>
      ctx.db.execute(sql`
        update rebates set status = 'completed', cash_rate_bps = 5000, amount_micro = 1000000,
          settled_at = now(), journal_id = ${NO_JOURNAL}
        where uid = ${uid}`),
    );
    expect(refused.code).toBe('23503');
    expect(refused.text).toContain(JOURNAL_KEY);
    const [row] = rowsOf<{ status: string; journal_id: string | null }>(
      await ctx.db.execute(sql`select status, journal_id from rebates where uid = ${uid}`),
    );
    expect(row).toEqual({ status: 'pending', journal_id: null });
  });
});

describe('an exchange its records name', () => {
  it('cannot be deleted nor renumbered; one no record names can', async () => {
    const named = await freshExchange();
    await insertRecord(ctx.db, named, nextUid('NAMED'));
    const deleted = await refusal(() => ctx.db.execute(sql`delete from exchanges where id = ${named}`));
    expect(deleted.code).toBe('23503');
    expect(deleted.text).toMatch(/rebates/);
    const renumbered = await refusal(() =>
      ctx.db.execute(sql`update exchanges set id = ${named + 500} where id = ${named}`),
    );
    expect(renumbered.code).toBe('23503');
    expect(renumbered.text).toMatch(/rebates/);
    const [kept] = rowsOf<{ n: number }>(
      await ctx.db.execute(sql`select count(*)::int as n from exchanges where id = ${named}`),
    );
    expect(kept?.n).toBe(1);
    // Its other columns still change (an operator's edit of the partner).
    await ctx.db.execute(sql`update exchanges set score_tenths = 50 where id = ${named}`);

    const unnamed = await freshExchange();
    await ctx.db.execute(sql`update exchanges set id = ${unnamed + 500} where id = ${unnamed}`);
    await ctx.db.execute(sql`delete from exchanges where id = ${unnamed + 500}`);
    const [gone] = rowsOf<{ n: number }>(
      await ctx.db.execute(
        sql`select count(*)::int as n from exchanges where id in (${unnamed}, ${unnamed + 500})`,
      ),
    );
    expect(gone?.n).toBe(0);
  });

  it('is not removed under a record being stored, nor a record stored naming one being removed', async () => {
    const first = ctx.db;
    const second = (apps[1] ?? (apps[0] as App)).deps.db;
    const concurrent = Boolean(process.env.TEST_DATABASE_URL);

    // A record stored while its exchange is deleted: the delete waits for the record, then is refused.
    const kept = await freshExchange();
    const stored = deferred();
    const release = deferred();
    const storing = first.transaction(async (tx) => {
      await insertRecord(tx as unknown as Database, kept, nextUid('RACEKEEP'));
      stored.resolve();
      await release.promise;
    });
    await stored.promise;
    let deleteSettled = false;
    const deleting = concurrent
      ? refusal(() => second.execute(sql`delete from exchanges where id = ${kept}`)).finally(() => {
          deleteSettled = true;
        })
      : undefined;
    if (deleting) await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deleteSettled).toBe(false);
    release.resolve();
    await storing;
    const deleted = await (deleting ??
      refusal(() => second.execute(sql`delete from exchanges where id = ${kept}`)));
    expect(deleted.code).toBe('23503');

    // An exchange deleted while a record naming it is stored: the record waits, then is refused.
    const removed = await freshExchange();
    const gone = deferred();
    const commit = deferred();
    const removing = second.transaction(async (tx) => {
      await tx.execute(sql`delete from exchanges where id = ${removed}`);
      gone.resolve();
      await commit.promise;
    });
    await gone.promise;
    const uid = nextUid('RACEGONE');
    let insertSettled = false;
    const inserting = concurrent
      ? refusal(() => insertRecord(first, removed, uid)).finally(() => {
          insertSettled = true;
        })
      : undefined;
    if (inserting) await new Promise((resolve) => setTimeout(resolve, 300));
    expect(insertSettled).toBe(false);
    commit.resolve();
    await removing;
    const refused = await (inserting ?? refusal(() => insertRecord(first, removed, uid)));
    expect(refused.code).toBe('23503');
    expect(refused.text).toContain(PLAT_KEY);
    expect(await recordsOf(uid)).toBe(0);
  });

  it('all exchanges cannot be truncated away from their records', async () => {
    const refused = await refusal(() =>
      ctx.db.transaction(async (tx) => {
        await tx.execute(sql`truncate exchanges cascade`);
        throw new Error('truncated');
      }),
    );
    expect(refused.text).not.toMatch(/^truncated/);
    const [row] = rowsOf<{ n: number }>(
      await ctx.db.execute(sql`select count(*)::int as n from exchanges where id = ${BITGET}`),
    );
    expect(row?.n).toBe(1);
  });
});

describe('ledger:check', () => {
  it('says when a trigger that checks the references of records is disabled', async () => {
    const found = await refusal(() =>
      ctx.db.transaction(async (tx) => {
        await tx.execute(sql`alter table rebates disable trigger rebates_references_insert`);
        const problems = await checkLedgerInvariants(tx);
        throw new Error(JSON.stringify(problems));
      }),
    );
    expect(found.text).toMatch(/missing or disabled: rebates_references_insert/);
    expect(await checkLedgerInvariants(ctx.db)).toEqual([]);
  });
});

describe('a valid figures file', () => {
  it('stores its records, the credited ones naming their journal', async () => {
    const [paid, waiting] = [nextUid('REFPAID'), nextUid('REFWAIT')];
    await ingestReferrals(
      ctx.deps,
      BITGET,
      [paid, waiting].map((uid) => ({ uid, registeredAt: new Date('2025-01-01T00:00:00Z') })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const member = await createMember(ctx);
    await bindExchangeUid(ctx.deps, member.id, {
      platId: BITGET,
      uid: paid,
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
    });
    const lines = [paid, waiting].flatMap((uid) =>
      [1, 2, 3].map((day) => `${uid},2026-10-0${day}T00:00:00Z,2026-10-0${day + 1}T00:00:00Z,100,2,1`),
    );
    const csv = Buffer.from(
      `uid,period_start,period_end,trading_volume,fee,commission\n${lines.join('\n')}\n`,
    );
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'references.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({ status: 'succeeded', rows: 6, inserted: 6 });
    const stored = rowsOf<{ uid: string; status: string; journal: boolean }>(
      await ctx.db.execute(sql`
        select r.uid, r.status, j.id is not null as journal from rebates r
        left join ledger_journals j on j.id = r.journal_id
        where r.uid in (${paid}, ${waiting}) order by r.uid, r.period_start`),
    );
    expect(stored.filter((row) => row.uid === paid).map((row) => [row.status, row.journal])).toEqual([
      ['completed', true],
      ['completed', true],
      ['completed', true],
    ]);
    expect(stored.filter((row) => row.uid === waiting)).toHaveLength(3);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});
