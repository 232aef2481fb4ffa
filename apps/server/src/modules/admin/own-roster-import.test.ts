import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { translate } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../auth/test-support.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  nextUid,
} from '../cashback/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { referralsImport } from './imports.commands.js';
import { runCsvImport } from './imports.service.js';
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
 * A roster line is money: a UID it lists first lets the UID's records settle (a record failed as
 * `uidNotReferred` is decided again) onto `cashback:<platId>:<uid>`, at the rate its registration time
 * decides (the speed-up window), and that balance is the UID's next holder's. So, as for figures, an
 * operator does not bind a UID a roster of theirs listed first (`bindOwnRoster`). A roster naming a UID
 * bound to its importer moves nothing (a bound UID is listed already) and is imported as any other.
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-own-roster-'));
}, 60_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ROSTER_HEADER = 'uid,registered_at';

const uploadRoster = (caller: Caller, fileName: string, csv: string, lang = 'en') =>
  adminCall(ctx, caller, 'uploadImport', { kind: 'referrals', platId: BITGET, fileName, csv }, lang);

const bind = (caller: Pick<Caller, 'token'>, uid: string, lang = 'en') =>
  call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: OWN_UID_ADDRESS },
    { token: caller.token, lang },
  );

/** Figures of an unlisted UID, imported by another operator: failed as not referred (past the grace). */
async function waitingFigures(uid: string, fileName: string) {
  const csv = [FIGURES_HEADER, `${uid},2026-10-10T00:00:00Z,2026-10-11T00:00:00Z,100,20,10`, ''].join('\n');
  const answer = await adminCall(ctx, other, 'uploadImport', {
    kind: 'rebates',
    platId: BITGET,
    fileName,
    csv,
  });
  expect(answer).toMatchObject({ state: 0, content: { status: 'succeeded', inserted: 1, settledFailed: 1 } });
  expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(0n);
}

describe('binding a UID a roster of the binder listed first', () => {
  it('is refused for the operator whose roster listed it, naming the UID in their language; another member binds it and holds the balance', async () => {
    const uid = nextUid('LISTED');
    await waitingFigures(uid, 'waiting.csv');
    // The operator's roster lists it: its failed record is decided again and credited to the UID.
    const csv = [ROSTER_HEADER, `${uid},2026-10-05T00:00:00Z`, ''].join('\n');
    expect(await uploadRoster(self, 'listing.csv', csv)).toMatchObject({
      state: 0,
      content: { status: 'succeeded', inserted: 1, settledCompleted: 1 },
    });
    const waiting = await balanceOf(ctx.db, accountCode.cashback(BITGET, uid));
    expect(waiting).toBeGreaterThan(0n);
    const bindings = await countRows(ctx, 'exchange_bindings');

    for (const lang of ['en', 'zh', 'ko'] as const) {
      expect((await bind(self, uid, lang)).json(), lang).toMatchObject({
        state: 1002,
        message: translate(lang, 'bindOwnRoster', { uid }),
        content: { messageKey: 'bindOwnRoster' },
      });
    }
    expect(translate('en', 'bindOwnRoster', { uid })).toBe(
      `UID ${uid} was listed by a roster you imported as an operator: it cannot be bound to your own account`,
    );
    expect(await countRows(ctx, 'exchange_bindings')).toBe(bindings);

    const member = await newMember(ctx);
    expect((await bind(member, uid)).json()).toMatchObject({ state: 0, content: { uid } });
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(waiting);
  });

  it('is refused after the command listed it, and after the role is gone', async () => {
    const uid = nextUid('CLI');
    await waitingFigures(uid, 'waiting-cli.csv');
    const importer = await newOperator(ctx);
    const file = path.join(dir, 'cli-roster.csv');
    fs.writeFileSync(file, [ROSTER_HEADER, `${uid},2026-10-05T00:00:00Z`, ''].join('\n'));
    const out: string[] = [];
    const code = await referralsImport.run(
      ctx.deps,
      [String(BITGET), file],
      { out: (text) => out.push(text), err: (text) => out.push(text) },
      { userId: importer.userId, label: importer.email },
    );
    expect(code, out.join('\n')).toBe(0);
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBeGreaterThan(0n);

    expect((await bind(importer, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnRoster' },
    });
    await revokeOperator(ctx.deps, importer.email, { userId: other.userId, label: other.email });
    expect((await bind(importer, uid)).json()).toMatchObject({
      state: 1002,
      content: { messageKey: 'bindOwnRoster' },
    });
    // Another operator binds it (not the one who imported its figures: bindOwnImport).
    const third = await newOperator(ctx);
    expect((await bind(third, uid)).json()).toMatchObject({ state: 0, content: { uid } });
  });

  it('is not refused when the operator’s line found the UID listed already, nor for a UID another operator or the bootstrap listed', async () => {
    const [known, theirs, boot] = [nextUid('KNOWN'), nextUid('THEIRS'), nextUid('BOOT')];
    await rostered(ctx, known);
    const importer = await newOperator(ctx);
    // The operator's line restates a UID listed before: it changes nothing (first seen wins).
    expect(
      await uploadRoster(
        importer,
        'restating.csv',
        [ROSTER_HEADER, `${known},2025-01-01T00:00:00Z`, ''].join('\n'),
      ),
    ).toMatchObject({ state: 0, content: { status: 'succeeded', inserted: 0, duplicates: 1 } });
    expect(
      await uploadRoster(
        other,
        'theirs.csv',
        [ROSTER_HEADER, `${theirs},2026-10-01T00:00:00Z`, ''].join('\n'),
      ),
    ).toMatchObject({ state: 0, content: { status: 'succeeded', inserted: 1 } });
    const bootCsv = Buffer.from([ROSTER_HEADER, `${boot},2026-10-01T00:00:00Z`, ''].join('\n'));
    expect(
      await runCsvImport(
        ctx.deps,
        { actor: { userId: null, label: 'bootstrap:cli:test' }, requestId: null },
        {
          kind: 'referrals',
          platId: BITGET,
          fileName: 'boot.csv',
          source: bootCsv,
          sizeBytes: bootCsv.length,
        },
      ),
    ).toMatchObject({ status: 'succeeded', inserted: 1 });

    for (const uid of [known, theirs, boot]) {
      expect((await bind(importer, uid)).json(), uid).toMatchObject({ state: 0, content: { uid } });
    }
  });
});
