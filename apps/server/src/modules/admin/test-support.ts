import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { deferred } from '../../test/deferred.js';
import { findActiveUserByEmail } from '../auth/auth.repository.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import { ingestReferrals } from '../cashback/ingest.service.js';
import { BITGET, type CashbackTestContext } from '../cashback/test-support.js';
import { deleteOperatorRow } from './admin.repository.js';
import { grantOperator } from './operators.service.js';

/** Test helpers for the operator console: operators and members with sessions, and the calls. */

export interface Caller {
  token: string;
  userId: number;
  email: string;
}

/** A member registered through the API. */
export async function newMember(ctx: CashbackTestContext, prefix = 'member'): Promise<Caller> {
  const email = nextEmail(prefix);
  const token = await signUp(ctx, email);
  const user = await findActiveUserByEmail(ctx.db, email);
  if (!user) throw new Error('the member vanished');
  return { token, userId: user.id, email };
}

/** A member granted the role, as `admin:grant` does. */
export async function newOperator(ctx: CashbackTestContext): Promise<Caller> {
  const member = await newMember(ctx, 'operator');
  expect(await grantOperator(ctx.deps, member.email, { userId: null, label: 'cli:test' })).toBe(true);
  return member;
}

/**
 * POSTs a console call as someone (or as a visitor without a token), answering the envelope. The
 * content is `any` by default: tests read the answer's fields they assert on, the contract types them.
 */
// biome-ignore lint/suspicious/noExplicitAny: the default lets a test read the fields it asserts on
export async function adminCall<T = any>(
  ctx: CashbackTestContext,
  caller: Pick<Caller, 'token'> | null,
  path: string,
  body: object = {},
  lang?: string,
): Promise<{ state: number; message: string; content: T }> {
  const res = await call(ctx, `/elex/admin/${path.replace(/^\/elex\/admin\//, '')}`, body, {
    ...(caller ? { token: caller.token } : {}),
    ...(lang ? { lang } : {}),
  });
  return res.json();
}

/** Row count of a table (for "nothing changed"). */
export async function countRows(ctx: CashbackTestContext, table: string): Promise<number> {
  const [row] = rowsOf<{ n: string }>(
    await ctx.db.execute(sql`select count(*) as n from ${sql.identifier(table)}`),
  );
  return Number(row?.n);
}

/**
 * A fingerprint of everything an operator call could change: every row of these tables as JSON, so
 * "nothing changed" compares whole contents, not only counts.
 */
export async function snapshotTables(ctx: CashbackTestContext, tables: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const rows = rowsOf<{ row: unknown }>(
      await ctx.db.execute(
        sql`select to_jsonb(t) as row from ${sql.identifier(table)} t order by to_jsonb(t)::text`,
      ),
    );
    parts.push(`${table}:${JSON.stringify(rows.map((row) => row.row))}`);
  }
  return parts.join('\n');
}

/**
 * A revocation of this member's operator role in flight: its delete done, its transaction held open
 * until `commit()` (PostgreSQL only: PGlite is one connection). A guard or a command's check reading
 * the role meanwhile still sees it.
 */
export async function revocationInFlight(ctx: CashbackTestContext, userId: number) {
  const held = deferred();
  const released = deferred();
  const done = ctx.db.transaction(async (tx) => {
    await deleteOperatorRow(tx, userId);
    held.resolve();
    await released.promise;
  });
  await held.promise;
  return {
    commit: () => {
      released.resolve();
      return done;
    },
  };
}

/** The answer, or 'waiting' when it has not come within a second (it waits for a lock). */
export const stillWaiting = <T>(answer: Promise<T>) =>
  Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('waiting'), 1_000))]);

/** A checksummed Polygon address for binds in the operators' own-UID tests. */
export const OWN_UID_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** The header of a rebate figures file. */
export const FIGURES_HEADER = 'uid,period_start,period_end,trading_volume,fee,commission';

/** UIDs in Bitget's roster (registered long before), not yet settled. */
export async function rostered(ctx: CashbackTestContext, ...uids: string[]) {
  await ingestReferrals(
    ctx.deps,
    BITGET,
    uids.map((uid) => ({ uid, registeredAt: new Date('2025-01-01T00:00:00Z') })),
    { kind: 'csv', label: 'roster.csv' },
    { settle: false },
  );
}
