import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { translate } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../auth/test-support.js';
import { bindExchangeUid, unbindUid } from '../bindings/bindings.service.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  nextUid,
} from '../cashback/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { rebatesImport } from './imports.commands.js';
import { revokeOperator } from './operators.service.js';
import {
  adminCall,
  type Caller,
  countRows,
  FIGURES_HEADER,
  newMember,
  newOperator,
  OWN_UID_ADDRESS,
  rostered,
} from './test-support.js';

/**
 * "Import figures first, bind the UID afterwards": a UID's records settle onto its account
 * (`cashback:<platId>:<uid>`) whether or not anyone holds it, and its next holder gets that balance.
 * So an operator who imported figures for an unbound UID and then bound it would be paid what they
 * alone decided. The bind is refused for a member whose own import stored figures of that UID
 * (`bindOwnImport`), as importing figures for their own bound UID is (`importOwnUid`); anyone else
 * binds it.
 */
let ctx: CashbackTestContext;
let operator: Caller;
let other: Caller;
let dir: string;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
  operator = await newOperator(ctx);
  other = await newOperator(ctx);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-bind-own-'));
}, 60_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function importFigures(caller: Caller, uid: string, fileName: string) {
  const csv = [FIGURES_HEADER, `${uid},2026-10-10T00:00:00Z,2026-10-11T00:00:00Z,100,20,10`, ''].join('\n');
  const answer = await adminCall(ctx, caller, 'uploadImport', {
    kind: 'rebates',
    platId: BITGET,
    fileName,
    csv,
  });
  expect(answer).toMatchObject({
    state: 0,
    content: { status: 'succeeded', inserted: 1, settledCompleted: 1 },
  });
}

const bind = (caller: Pick<Caller, 'token'>, uid: string, lang = 'en') =>
  call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: OWN_UID_ADDRESS },
    { token: caller.token, lang },
  );

describe('binding a UID whose figures the binder imported', () => {
  it('is refused for the importing operator, naming the UID in their language; the money stays for another holder', async () => {
    const uid = nextUid('MINE');
    await rostered(ctx, uid);
    await importFigures(operator, uid, 'later-mine.csv');
    // Settled onto the UID's account, which nobody holds yet: it waits for whoever binds the UID.
    const waiting = await balanceOf(ctx.db, accountCode.cashback(BITGET, uid));
    expect(waiting).toBeGreaterThan(0n);
    const bindings = await countRows(ctx, 'exchange_bindings');

    expect((await bind(operator, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });
    for (const lang of ['en', 'zh', 'ko'] as const) {
      const answer = (await bind(operator, uid, lang)).json();
      expect(answer, lang).toMatchObject({
        state: 1002,
        message: translate(lang, 'bindOwnImport', { uid }),
        content: { messageKey: 'bindOwnImport' },
      });
    }
    expect(await countRows(ctx, 'exchange_bindings')).toBe(bindings);
    // Still refused once the role is gone: the figures stay theirs.
    await revokeOperator(ctx.deps, operator.email, { userId: other.userId, label: other.email });
    expect((await bind(operator, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });

    // Another member (an operator too) binds it and holds the balance.
    expect((await bind(other, uid)).json()).toMatchObject({ state: 0, content: { uid } });
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(waiting);
  });

  it('is not refused for figures another operator imported, nor for a member who imported nothing', async () => {
    const [byOther, plain] = [nextUid('THEIRS'), nextUid('PLAIN')];
    await rostered(ctx, byOther, plain);
    await importFigures(other, byOther, 'theirs.csv');
    const importer = await newOperator(ctx);
    expect((await bind(importer, byOther)).json()).toMatchObject({ state: 0, content: { uid: byOther } });
    const member = await newMember(ctx);
    expect((await bind(member, plain)).json()).toMatchObject({ state: 0, content: { uid: plain } });
  });

  it('refuses only the operator whose import stored the UID’s records, when two operators import files of one name at once', async () => {
    // Both files are "a.csv", imported at the same moment (the test clock stands still): their runs
    // overlap. Before records named their run, each operator's run matched both UIDs' records, and
    // either operator's bind of the other's UID was refused.
    const [first, second] = [nextUid('SAME'), nextUid('SAME')];
    await rostered(ctx, first, second);
    const [a, b] = [await newOperator(ctx), await newOperator(ctx)];
    await importFigures(a, first, 'a.csv');
    await importFigures(b, second, 'a.csv');

    expect((await bind(a, first)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });
    expect((await bind(b, second)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });
    expect((await bind(b, first)).json()).toMatchObject({ state: 0, content: { uid: first } });
    expect((await bind(a, second)).json()).toMatchObject({ state: 0, content: { uid: second } });
  });

  it('refuses the operator whose rebates:import stored records stamped after the run ended', async () => {
    // The UID's previous holder was unbound at the import's moment (an instance whose clock is ahead
    // does so too): its credit is stamped just after that end (creditStampOf), after the run's
    // finish. The file name and run times no longer tell whose import it was; the record's run does.
    const uid = nextUid('LATE');
    await rostered(ctx, uid);
    const holder = await newMember(ctx);
    await bindExchangeUid(ctx.deps, holder.userId, { platId: BITGET, uid, address: OWN_UID_ADDRESS });
    await ctx.db.transaction((tx) =>
      unbindUid(tx, { platId: BITGET, uid, reason: 'kycTransfer', operatorId: null, at: ctx.clock.now() }),
    );
    const file = path.join(dir, 'late.csv');
    fs.writeFileSync(
      file,
      [FIGURES_HEADER, `${uid},2026-10-12T00:00:00Z,2026-10-13T00:00:00Z,100,20,10`, ''].join('\n'),
    );
    const importer = await newOperator(ctx);
    const out: string[] = [];
    const code = await rebatesImport.run(
      ctx.deps,
      [String(BITGET), file],
      { out: (text) => out.push(text), err: (text) => out.push(text) },
      { userId: importer.userId, label: importer.email },
    );
    expect(code, out.join('\n')).toBe(0);
    // The record names the command's run, recorded under the operator.
    const named = rowsOf(
      await ctx.db.execute(sql`
      select i.operator_id::integer as operator_id, i.file_name, i.status
      from rebates r join import_runs i on i.id = r.import_run_id
      where r.plat_id = ${BITGET} and r.uid = ${uid}`),
    );
    expect(named).toEqual([{ operator_id: importer.userId, file_name: 'late.csv', status: 'succeeded' }]);
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBeGreaterThan(0n);

    expect((await bind(importer, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });
    expect((await bind(other, uid)).json()).toMatchObject({ state: 0, content: { uid } });
  });

  it('still refuses the importer of a record stored before records named their run (matched by file name and time)', async () => {
    const uid = nextUid('OLD');
    await rostered(ctx, uid);
    const importer = await newOperator(ctx);
    // Its period ended less than the settlement delay ago: stored pending, so it can be made to read as
    // a record stored before migration 0048, which names no run (a settled record cannot change).
    const csv = [FIGURES_HEADER, `${uid},2026-10-20T00:00:00Z,2026-10-20T01:00:00Z,100,20,10`, ''].join('\n');
    const answer = await adminCall(ctx, importer, 'uploadImport', {
      kind: 'rebates',
      platId: BITGET,
      fileName: 'before-0048.csv',
      csv,
    });
    expect(answer).toMatchObject({
      state: 0,
      content: { status: 'succeeded', inserted: 1, settledCompleted: 0 },
    });
    await ctx.db.execute(
      sql`update rebates set import_run_id = null where plat_id = ${BITGET} and uid = ${uid}`,
    );

    expect((await bind(importer, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnImport' },
    });
    expect((await bind(other, uid)).json()).toMatchObject({ state: 0, content: { uid } });
  });
});
