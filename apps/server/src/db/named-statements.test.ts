import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../test/scratch-database.js';
import { type DatabaseHandle, openDatabase } from './client.js';
import { forgetStatementNames, statementNameOf } from './named-statements.js';
import { rowsOf } from './rows.js';
import { users } from './schema.js';

// Earlier files of the worker named texts of their own, perhaps up to the cap.
beforeEach(forgetStatementNames);

describe('statementNameOf', () => {
  it('names a text from its second run on, always with the same name', () => {
    const text = `select ${Math.random()} where $1::int = 1`;
    expect(statementNameOf(text)).toBeUndefined();
    const name = statementNameOf(text);
    expect(name).toMatch(/^elex_[\w-]{27}$/);
    expect(statementNameOf(text)).toBe(name);
    expect(statementNameOf(`${text} `)).toBeUndefined();
  });

  it('never names a text longer than 16 KiB (a statement made for one long list)', () => {
    const text = `select 1 where $1::text in (${"'x',".repeat(5_000)}'y')`;
    for (let run = 0; run < 3; run += 1) expect(statementNameOf(text)).toBeUndefined();
  });
});

// Named statements exist only on node-postgres: PGlite runs every statement as given.
describe.runIf(process.env.TEST_DATABASE_URL)('named statements on PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
    // One connection: pg_prepared_statements lists the statements of the session that asks.
    handle = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 1 });
  });
  afterAll(async () => {
    await handle?.close();
    await scratch?.drop();
  });

  const prepared = async () =>
    rowsOf<{ name: string; statement: string }>(
      await handle.db.execute(sql`select name, statement from pg_prepared_statements`),
    );

  it('prepares a repeated query once and answers each run with its own values', async () => {
    const emails = ['a@example.com', 'b@example.com', 'c@example.com'];
    await handle.db.insert(users).values(
      emails.map((email, n) => ({
        email,
        passwordHash: 'x',
        userCode: `U${n}`,
        inviteCode: `I${n}`,
        createdAt: new Date(),
      })),
    );
    const byEmail = (email: string) =>
      handle.db.select({ email: users.email }).from(users).where(eq(users.email, email));
    // Past PostgreSQL's five custom plans, so a kept generic plan answers too.
    for (let run = 0; run < 9; run += 1) {
      const email = emails[run % 3] as string;
      expect(await byEmail(email)).toEqual([{ email }]);
    }
    expect(await byEmail('nobody@example.com')).toEqual([]);
    const named = (await prepared()).filter((row) => row.name.startsWith('elex_'));
    expect(named.filter((row) => row.statement.includes('"users"."email" = $1'))).toHaveLength(1);
  });

  it('runs a text of several commands without parameters as before (never named)', async () => {
    await handle.db.execute(sql.raw('select 1; select 2'));
    await handle.db.execute(sql.raw('select 1; select 2'));
    expect((await prepared()).some((row) => row.statement.includes('select 2'))).toBe(false);
  });

  it('reads a temporary table made again in each transaction (settlement numbers its pages so)', async () => {
    for (const size of [3, 7, 1, 5]) {
      const total = await handle.db.transaction(async (tx) => {
        await tx.execute(
          sql`create temporary table due on commit drop as select generate_series(1, ${size}::int) as id`,
        );
        const [row] = rowsOf<{ total: number }>(
          await tx.execute(sql`select coalesce(sum(id), 0)::int as total from due where id > ${0}`),
        );
        return row?.total;
      });
      expect(total).toBe((size * (size + 1)) / 2);
    }
  });
});
