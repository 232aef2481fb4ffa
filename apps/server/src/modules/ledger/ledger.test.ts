import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../cashback/cashback.repository.js';
import { type CashbackTestContext, createCashbackTestApp, createMember } from '../cashback/test-support.js';
import { checkLedgerInvariants } from './ledger.check.js';
import {
  accountCode,
  balanceOf,
  InsufficientBalanceError,
  LedgerError,
  parseAccountCode,
  postJournal,
} from './ledger.service.js';

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

let counter = 0;
const key = (label: string) => {
  counter += 1;
  return `test:${label}:${counter}`;
};
const at = () => ctx.clock.now();

/** The whole message chain of a driver error (drizzle wraps the database's message in `cause`). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    parts.push(String((current as Error).message ?? current));
  }
  return parts.join(' <- ');
}

async function failure(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return errorText(error);
  }
  throw new Error('expected the database to refuse');
}

/** Credits a UID's cashback account from an exchange's commission. */
async function credit(uid: string, amount: bigint) {
  return ctx.db.transaction((tx) =>
    postJournal(tx, {
      kind: 'rebate',
      key: key('credit'),
      at: at(),
      lines: [
        { account: accountCode.commission(1), amount: -amount },
        { account: accountCode.cashback(1, uid), amount },
      ],
    }),
  );
}

describe('account codes', () => {
  it('parses every kind and refuses anything else', () => {
    expect(parseAccountCode('cashback:4:ABC_12-x')).toMatchObject({
      kind: 'cashback',
      platId: 4,
      uid: 'ABC_12-x',
    });
    expect(parseAccountCode('commission:4')).toMatchObject({ kind: 'commission', platId: 4 });
    expect(parseAccountCode('rewards:17')).toMatchObject({ kind: 'rewards', userId: 17 });
    expect(parseAccountCode('hold:9')).toMatchObject({ kind: 'hold', referenceId: 9 });
    expect(parseAccountCode('rewards-expense')).toMatchObject({ kind: 'rewards-expense' });
    expect(parseAccountCode('payout')).toMatchObject({ kind: 'payout' });
    for (const bad of [
      'cashback:4',
      'cashback:4:a:b',
      'commission:x',
      'rewards:0',
      'hold:',
      'wallet:1',
      '',
    ]) {
      expect(parseAccountCode(bad)).toBeNull();
    }
  });
});

describe('postJournal', () => {
  it('books a balanced journal once per key', async () => {
    const journalKey = key('once');
    const journal = {
      kind: 'rebate',
      key: journalKey,
      at: at(),
      lines: [
        { account: accountCode.commission(1), amount: -2_500_000n },
        { account: accountCode.cashback(1, 'ONCE0001'), amount: 2_500_000n },
      ],
    };
    const first = await ctx.db.transaction((tx) => postJournal(tx, journal));
    const second = await ctx.db.transaction((tx) => postJournal(tx, journal));
    expect(first.created).toBe(true);
    expect(second).toEqual({ key: journalKey, journalId: first.journalId, created: false });
    expect(await balanceOf(ctx.db, accountCode.cashback(1, 'ONCE0001'))).toBe(2_500_000n);
  });

  it.each([
    ['one line', [{ account: 'cashback:1:ONE00001', amount: 5n }]],
    [
      'lines that do not sum to zero',
      [
        { account: 'commission:1', amount: -5n },
        { account: 'cashback:1:ONE00001', amount: 4n },
      ],
    ],
    [
      'a zero line',
      [
        { account: 'commission:1', amount: 0n },
        { account: 'cashback:1:ONE00001', amount: 0n },
      ],
    ],
    [
      'an unknown account',
      [
        { account: 'commission:1', amount: -5n },
        { account: 'wallet:1', amount: 5n },
      ],
    ],
  ])('refuses %s and writes nothing', async (_label, lines) => {
    const journalKey = key('bad');
    await expect(
      ctx.db.transaction((tx) => postJournal(tx, { kind: 'rebate', key: journalKey, at: at(), lines })),
    ).rejects.toBeInstanceOf(LedgerError);
    const found = rowsOf(
      await ctx.db.execute(sql`select id from ledger_journals where idempotency_key = ${journalKey}`),
    );
    expect(found).toHaveLength(0);
  });

  it('refuses to take a member-facing account below zero, and the transaction books nothing', async () => {
    await credit('OVER0001', 1_000_000n);
    const error = await ctx.db
      .transaction((tx) =>
        postJournal(tx, {
          kind: 'withdrawalHold',
          key: key('overdraw'),
          at: at(),
          lines: [
            { account: accountCode.cashback(1, 'OVER0001'), amount: -1_000_001n },
            { account: accountCode.hold(1), amount: 1_000_001n },
          ],
        }),
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect(await balanceOf(ctx.db, accountCode.cashback(1, 'OVER0001'))).toBe(1_000_000n);
    expect(await balanceOf(ctx.db, accountCode.hold(1))).toBe(0n);
  });

  it('lets concurrent withdrawals take only what the balance holds (row lock on the account)', async () => {
    const uid = 'RACE0001';
    await credit(uid, 100n);
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        ctx.db.transaction(async (tx) => {
          const balance = await balanceOf(tx, accountCode.cashback(1, uid), { forUpdate: true, at: at() });
          if (balance < 30n) throw new InsufficientBalanceError(accountCode.cashback(1, uid), balance, -30n);
          return postJournal(tx, {
            kind: 'withdrawalHold',
            key: key(`race-${index}`),
            at: at(),
            lines: [
              { account: accountCode.cashback(1, uid), amount: -30n },
              { account: accountCode.hold(1000 + index), amount: 30n },
            ],
          });
        }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(3);
    expect(await balanceOf(ctx.db, accountCode.cashback(1, uid))).toBe(10n);
    expect(await checkLedgerInvariants(ctx.db)).toEqual([]);
  });
});

describe('the database guards the ledger', () => {
  beforeAll(async () => {
    await credit('GUARD001', 7_000_000n);
  });

  it.each([
    ['update a line', sql`update ledger_lines set amount = amount * 2`],
    ['delete a line', sql`delete from ledger_lines`],
    ['truncate the lines', sql`truncate ledger_lines`],
    ['update a journal', sql`update ledger_journals set memo = 'edited'`],
    ['delete a journal', sql`delete from ledger_journals`],
    ['truncate the journals', sql`truncate ledger_journals cascade`],
    ['update an account', sql`update ledger_accounts set uid = 'OTHER001' where kind = 'cashback'`],
    ['delete an account', sql`delete from ledger_accounts`],
  ])('refuses to %s', async (_label, statement) => {
    expect(await failure(() => ctx.db.execute(statement))).toMatch(/append-only/);
  });

  it('refuses to commit a journal whose lines do not sum to zero', async () => {
    const journalKey = key('raw-unbalanced');
    const message = await failure(() =>
      ctx.db.transaction(async (tx) => {
        const [journal] = rowsOf<{ id: string }>(
          await tx.execute(sql`insert into ledger_journals (kind, idempotency_key, created_at)
            values ('rebate', ${journalKey}, now()) returning id`),
        );
        const [account] = rowsOf<{ id: string }>(
          await tx.execute(sql`select id from ledger_accounts where code = 'cashback:1:GUARD001'`),
        );
        await tx.execute(sql`insert into ledger_lines (journal_id, account_id, amount)
          values (${journal?.id}, ${account?.id}, 5000000), (${journal?.id}, ${account?.id}, -4000000)`);
      }),
    );
    expect(message).toMatch(/unbalanced/);
    const found = rowsOf(
      await ctx.db.execute(sql`select id from ledger_journals where idempotency_key = ${journalKey}`),
    );
    expect(found).toHaveLength(0);
  });

  it('refuses to commit a journal without lines', async () => {
    const message = await failure(() =>
      ctx.db.execute(sql`insert into ledger_journals (kind, idempotency_key, created_at)
        values ('rebate', ${key('raw-empty')}, now())`),
    );
    expect(message).toMatch(/unbalanced/);
  });

  it('refuses a zero line and an account code that does not match its parts', async () => {
    // A balanced journal (5 - 5 + 0) so that only the zero line can be what the database refuses.
    const zeroKey = key('raw-zero-line');
    expect(
      await failure(() =>
        // One statement, as postJournals writes them: the balance check runs at the statement's end.
        ctx.db.execute(sql`
          with journal as (
            insert into ledger_journals (kind, idempotency_key, created_at)
            values ('rebate', ${zeroKey}, now()) returning id
          ), account as (select id from ledger_accounts where code = 'cashback:1:GUARD001')
          insert into ledger_lines (journal_id, account_id, amount)
          select journal.id, account.id, amount from journal, account, (values (5), (-5), (0)) as v(amount)`),
      ),
    ).toMatch(/ledger_lines_amount_check/);
    expect(
      rowsOf(await ctx.db.execute(sql`select id from ledger_journals where idempotency_key = ${zeroKey}`)),
    ).toHaveLength(0);
    expect(
      await failure(() =>
        ctx.db.execute(sql`insert into ledger_accounts (code, kind, plat_id, uid, created_at)
          values ('cashback:1:X', 'cashback', 2, 'X', now())`),
      ),
    ).toMatch(/ledger_accounts_code_check/);
    expect(
      await failure(() =>
        ctx.db.execute(
          sql`insert into ledger_accounts (code, kind, created_at) values ('cashback:1:Y', 'cashback', now())`,
        ),
      ),
    ).toMatch(/ledger_accounts_code_check/);
  });

  it('keeps every invariant after all of the above', async () => {
    expect(await checkLedgerInvariants(ctx.db)).toEqual([]);
  });
});

describe('balanceOf', () => {
  it('answers 0 for an account nobody used, and creates and locks it with forUpdate', async () => {
    const member = await createMember(ctx);
    const code = accountCode.rewards(member.id);
    expect(await balanceOf(ctx.db, code)).toBe(0n);
    const balance = await ctx.db.transaction((tx) => balanceOf(tx, code, { forUpdate: true, at: at() }));
    expect(balance).toBe(0n);
    const [row] = rowsOf<{ user_id: string }>(
      await ctx.db.execute(sql`select user_id from ledger_accounts where code = ${code}`),
    );
    expect(Number(row?.user_id)).toBe(member.id);
  });
});
