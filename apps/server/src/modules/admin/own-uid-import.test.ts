import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { translate } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred } from '../../test/deferred.js';
import { bindExchangeUid } from '../bindings/bindings.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  nextUid,
} from '../cashback/test-support.js';
import { accountCode, balanceOf, holdAccounts } from '../ledger/ledger.service.js';
import { creditCashback } from '../withdrawals/test-support.js';
import { rebatesImport } from './imports.commands.js';
import { runCsvImport } from './imports.service.js';
import {
  adminCall,
  type Caller,
  countRows,
  FIGURES_HEADER,
  newOperator,
  OWN_UID_ADDRESS,
  rostered,
} from './test-support.js';

/**
 * An operator does not import a figures file that credits a UID bound to their own account
 * (`importOwnUid`, as their own withdrawal, corrections and unbinds are another operator's): the
 * console's upload and `rebates:import` refuse it naming each such UID by line, nothing imported;
 * another operator imports the same file. Asked under the exchange's ledger lock the import takes and
 * again before it commits, so a binding made while a long file was written is seen.
 */
let ctx: CashbackTestContext;
let self: Caller;
let other: Caller;
let dir: string;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
  self = await newOperator(ctx);
  other = await newOperator(ctx);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-own-uid-'));
}, 60_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const line = (uid: string, day: number) =>
  `${uid},2026-10-${String(day).padStart(2, '0')}T00:00:00Z,2026-10-${String(day + 1).padStart(2, '0')}T00:00:00Z,100,2,1`;

describe('a figures file crediting the importing operator’s own UID', () => {
  it('is refused by the console and the command, naming the UID in the operator’s language; another operator imports it', async () => {
    const [plain, own, ownToo] = [nextUid('PLAIN'), nextUid('OWN'), nextUid('OWN')];
    await rostered(ctx, plain, own, ownToo);
    await bindExchangeUid(ctx.deps, self.userId, { platId: BITGET, uid: own, address: OWN_UID_ADDRESS });
    await bindExchangeUid(ctx.deps, self.userId, { platId: BITGET, uid: ownToo, address: OWN_UID_ADDRESS });
    const lines = [FIGURES_HEADER, line(plain, 10), line(own, 10), line(ownToo, 11), ''];
    const csv = lines.join('\n');
    const name = path.join(dir, 'own.csv');
    fs.writeFileSync(name, csv);
    const stored = await countRows(ctx, 'rebates');

    const upload = (caller: Caller, lang: string) =>
      adminCall(
        ctx,
        caller,
        'uploadImport',
        { kind: 'rebates', platId: BITGET, fileName: 'own.csv', csv },
        lang,
      );
    for (const lang of ['en', 'zh', 'ko'] as const) {
      const answer = await upload(self, lang);
      expect(answer, lang).toMatchObject({ state: 0, content: { status: 'rejected', inserted: 0 } });
      expect(answer.content.problems).toEqual([
        expect.objectContaining({
          line: 3,
          field: 'uid',
          reason: translate(lang, 'importOwnUid', { uid: own }),
        }),
        expect.objectContaining({
          line: 4,
          field: 'uid',
          reason: translate(lang, 'importOwnUid', { uid: ownToo }),
        }),
      ]);
    }
    expect(translate('en', 'importOwnUid', { uid: own })).toBe(
      `UID ${own} is bound to your own account: another operator must import this file`,
    );

    const err: string[] = [];
    const code = await rebatesImport.run(
      ctx.deps,
      [String(BITGET), name],
      { out: () => {}, err: (text) => err.push(text) },
      { userId: self.userId, label: self.email },
    );
    expect(code).toBe(1);
    expect(err.slice(1)).toEqual([
      `  line 3, uid: UID ${own} is bound to your own account: another operator must import this file`,
      `  line 4, uid: UID ${ownToo} is bound to your own account: another operator must import this file`,
    ]);
    expect(await countRows(ctx, 'rebates')).toBe(stored);
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, own))).toBe(0n);

    const imported = await upload(other, 'en');
    expect(imported).toMatchObject({ state: 0, content: { status: 'succeeded', inserted: 3 } });
  });

  // PGlite is one connection: a binding cannot run while the import's transaction runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'the operator binding the UID while the file is being written waits for the import, then is refused (bindOwnImport)',
    async () => {
      const [busy, later] = [nextUid('BUSY'), nextUid('LATER')];
      await rostered(ctx, busy, later);
      // Another UID's account held by a transaction: the import's settlement waits there, holding the
      // exchange's ledger lock, while the operator binds the other UID of the file.
      await creditCashback(ctx, BITGET, busy, '1');
      const held = deferred();
      const released = deferred();
      const holding = ctx.db.transaction(async (tx) => {
        await holdAccounts(tx, [accountCode.cashback(BITGET, busy)], ctx.clock.now());
        held.resolve();
        await released.promise;
      });
      await held.promise;
      const csv = Buffer.from([FIGURES_HEADER, line(busy, 12), line(later, 12), ''].join('\n'));
      const importing = runCsvImport(
        ctx.deps,
        { actor: { userId: self.userId, label: self.email }, requestId: null },
        { kind: 'rebates', platId: BITGET, fileName: 'late.csv', source: csv, sizeBytes: csv.length },
      );
      const early = await Promise.race([
        importing,
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 1_000)),
      ]);
      expect(early).toBe('waiting');
      // An operator's bind waits for the exchange's import in flight (its ledger lock)...
      const binding = bindExchangeUid(ctx.deps, self.userId, {
        platId: BITGET,
        uid: later,
        address: OWN_UID_ADDRESS,
      }).then(
        () => 'bound',
        (error: unknown) => error,
      );
      expect(
        await Promise.race([binding, new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]),
      ).toBe('waiting');
      released.resolve();
      await holding;
      // ...the import (the UID unbound while it ran) goes through, and the bind then sees its figures.
      expect(await importing).toMatchObject({ status: 'succeeded', inserted: 2 });
      expect(await binding).toMatchObject({ messageKey: 'bindOwnImport', values: { uid: later } });
      expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, later))).toBeGreaterThan(0n);
    },
  );
});
