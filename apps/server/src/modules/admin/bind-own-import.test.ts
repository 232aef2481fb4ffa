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

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
  operator = await newOperator(ctx);
  other = await newOperator(ctx);
}, 60_000);
afterAll(() => ctx.close());

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
});
