import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { State, translate } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Transaction } from '../../db/client.js';
import { deferred } from '../../test/deferred.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { lockMemberRow } from '../auth/auth.service.js';
import { suspendUser } from '../auth/suspension.js';
import { call } from '../auth/test-support.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import { ingestRebates } from '../cashback/ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from '../cashback/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { drainOutbox } from '../mail/outbox.js';
import { devMailbox } from '../mail/transport.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  creditCashback,
  fundedMember,
  moneyOf,
  ownCode,
} from '../withdrawals/test-support.js';
import { checkWithdrawalInvariants } from '../withdrawals/withdrawals.check.js';
import { getWithdrawal } from '../withdrawals/withdrawals.decisions.js';
import { adminGrant, adminRevoke } from './admin.commands.js';
import { insertOperatorUnlessPresent } from './admin.repository.js';
import { rebatesImport, referralsImport } from './imports.commands.js';
import { findOperator, grantOperator } from './operators.service.js';
import { adminCall, type Caller, countRows, newMember, newOperator } from './test-support.js';
import { approveAudited, rejectAudited } from './withdrawals-queue.service.js';

let ctx: CashbackTestContext;
let operator: Caller;
let dir: string;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
  operator = await newOperator(ctx);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-admin-'));
}, 60_000);
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runCommand(command: typeof adminGrant, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command.run(
    ctx.deps,
    args,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { userId: operator.userId, label: operator.email },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A partner as the console's editor loads it. */
async function editorEntry(platId: number) {
  const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
  const found = exchanges.find((entry: { platId: number }) => entry.platId === platId);
  if (!found) throw new Error(`no exchange ${platId}`);
  const { vipTiers, activities: _a, ...fields } = found;
  return { fields, vipTiers, updatedAt: found.updatedAt as string };
}

async function auditRows(target: string) {
  const answer = await adminCall(ctx, operator, 'auditLog', { target });
  expect(answer.state).toBe(0);
  return answer.content.rows as Array<{ action: string; actor: string; before: unknown; after: unknown }>;
}

describe('admin:grant and admin:revoke', () => {
  it('grants the role to a member by e-mail, once, and the console opens for them', async () => {
    const member = await newMember(ctx);
    expect((await adminCall(ctx, member, 'whoami')).state).toBe(State.Forbidden);
    const granted = await runCommand(adminGrant, [member.email.toUpperCase()]);
    expect(granted).toEqual({ code: 0, out: `${member.email.toUpperCase()} is now an operator.`, err: '' });
    expect(await adminCall(ctx, member, 'whoami')).toMatchObject({
      state: 0,
      content: { userId: member.userId, email: member.email },
    });
    expect((await runCommand(adminGrant, [member.email])).out).toBe(
      `${member.email} was already an operator.`,
    );
    expect(await auditRows(`user:${member.userId}`)).toMatchObject([
      {
        action: 'operator.grant',
        actor: operator.email,
        before: { isOperator: false },
        after: { isOperator: true },
      },
    ]);

    const revoked = await runCommand(adminRevoke, [member.email]);
    expect(revoked).toMatchObject({ code: 0, out: `${member.email} is no longer an operator.` });
    expect((await adminCall(ctx, member, 'whoami')).state).toBe(State.Forbidden);
    expect((await runCommand(adminRevoke, [member.email])).out).toBe(`${member.email} was not an operator.`);
    expect((await auditRows(`user:${member.userId}`)).map((row) => row.action)).toEqual([
      'operator.revoke',
      'operator.grant',
    ]);
  });

  it('refuses the role to a suspended member: an operator is never a suspended one', async () => {
    const member = await newMember(ctx);
    expect(
      await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason: 'Fraud' }),
    ).toMatchObject({ state: 0 });
    expect(await runCommand(adminGrant, [member.email])).toEqual({
      code: 1,
      out: '',
      err: `${member.email} is suspended: reinstate the member in the console first. Nothing was changed.`,
    });
    expect(await findOperator(ctx.db, member.userId)).toBeNull();
    expect((await auditRows(`user:${member.userId}`)).map((row) => row.action)).toEqual(['member.suspend']);
  });

  /** Holds a transaction open once `begin` ran in it, until the answer is released. */
  async function heldWhile(begin: (tx: Transaction) => Promise<unknown>) {
    const held = deferred();
    const released = deferred();
    const done = ctx.db.transaction(async (tx) => {
      await begin(tx);
      held.resolve();
      await released.promise;
    });
    await held.promise;
    return {
      release: () => {
        released.resolve();
        return done;
      },
    };
  }
  const stillWaiting = <T>(answer: Promise<T>) =>
    Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('waiting'), 1_000))]);

  // PGlite is one connection: nothing there can hold the member's row while a grant runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a grant and a suspension at the same moment: never both',
    async () => {
      const suspending = await newMember(ctx);
      const inFlight = await heldWhile((tx) =>
        suspendUser(tx, {
          userId: suspending.userId,
          reason: 'Fraud',
          operatorId: null,
          at: ctx.clock.now(),
        }),
      );
      const grant = runCommand(adminGrant, [suspending.email]);
      expect(await stillWaiting(grant)).toBe('waiting');
      await inFlight.release();
      expect(await grant).toMatchObject({ code: 1 });
      expect(await findOperator(ctx.db, suspending.userId)).toBeNull();

      const granting = await newMember(ctx);
      const granted = await heldWhile(async (tx) => {
        await lockMemberRow(tx, granting.userId);
        await insertOperatorUnlessPresent(tx, {
          userId: granting.userId,
          grantedAt: ctx.clock.now(),
          grantedBy: 'x',
        });
      });
      const suspend = adminCall(ctx, operator, 'suspendMember', { userId: granting.userId, reason: 'Fraud' });
      expect(await stillWaiting(suspend)).toBe('waiting');
      await granted.release();
      expect(await suspend).toMatchObject({
        state: State.Refused,
        message: translate('en', 'operatorNotSuspendable'),
      });
      expect((await adminCall(ctx, granting, 'whoami')).state).toBe(0);
    },
  );

  it('refuses an unknown e-mail and a wrong number of arguments', async () => {
    expect(await runCommand(adminGrant, ['nobody@example.com'])).toMatchObject({
      code: 1,
      err: 'No member with the e-mail nobody@example.com.',
    });
    expect(await runCommand(adminRevoke, ['nobody@example.com'])).toMatchObject({ code: 1 });
    expect(await runCommand(adminGrant, [])).toMatchObject({
      code: 2,
      err: 'Usage: npm run ops -- admin:grant <email>',
    });
    expect(await runCommand(adminGrant, ['a@b.c', 'd@e.f'])).toMatchObject({ code: 2 });
  });
});

describe('the catalog editor', () => {
  it('saves every field, and /elex/exchange/index shows it at once (the home cache is dropped)', async () => {
    const before = (await call(ctx, '/elex/exchange/index')).json();
    const row = before.content.allExchange.find((entry: { platId: number }) => entry.platId === BITGET);
    expect(row.cashRate).not.toBe('61.25');
    const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
    const bitget = exchanges.find((entry: { platId: number }) => entry.platId === BITGET);
    const { platId, vipTiers: _v, activities: _a, ...fields } = bitget;
    const saved = await adminCall(ctx, operator, 'updateExchange', {
      platId,
      ...fields,
      name: 'Bitget Edited',
      cashRate: '61.25',
      limitPrice: '0.0150',
      score: '8.7',
      marks: [{ tag: 'lowFees', iconUrl: '/logos/tags/low-fees.svg' }],
      feesCheckedOn: '2026-05-30',
    });
    expect(saved).toMatchObject({
      state: 0,
      message: 'Saved successfully',
      content: { name: 'Bitget Edited', cashRate: '61.25', limitPrice: '0.0150', score: '8.7' },
    });
    const after = (await call(ctx, '/elex/exchange/index')).json();
    expect(
      after.content.allExchange.find((entry: { platId: number }) => entry.platId === BITGET),
    ).toMatchObject({
      platname: 'Bitget Edited',
      cashRate: '61.25',
      limitPrice: '0.0150',
      score: 8.7,
      mark: [{ tag: 'lowFees', iconUrl: '/logos/tags/low-fees.svg' }],
    });
    const [entry] = await auditRows(`exchange:${BITGET}`);
    expect(entry).toMatchObject({
      action: 'exchange.update',
      actor: operator.email,
      before: { name: bitget.name, cashRate: bitget.cashRate },
      after: { name: 'Bitget Edited', cashRate: '61.25' },
    });
  });

  it('refuses bad values naming the field, and an abbreviation another exchange uses', async () => {
    const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
    const [first, second] = exchanges;
    const { vipTiers: _v, activities: _a, ...fields } = second;
    expect(await adminCall(ctx, operator, 'updateExchange', { ...fields, cashRate: '100.01' })).toMatchObject(
      {
        state: State.ValidationFailed,
        message: 'cashRate: invalid value',
      },
    );
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...fields, limitPrice: '0.00001' }),
    ).toMatchObject({
      message: 'limitPrice: invalid value',
    });
    expect(
      await adminCall(ctx, operator, 'updateExchange', {
        ...fields,
        signupUrlTemplate: 'javascript:alert({code})',
      }),
    ).toMatchObject({ message: 'signupUrlTemplate: Enter a web address starting with https://' });
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...fields, logo: 'https://evil.example/x.svg' }),
    ).toMatchObject({
      message: 'logo: invalid value',
    });
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...fields, abbreviation: first.abbreviation }),
    ).toMatchObject({ state: State.Refused, message: 'Another exchange already uses this abbreviation' });
  });

  it('replaces the VIP table and adds, changes and removes activities, each shown on the public pages', async () => {
    const tiers = [
      {
        level: 'VIP 1',
        volume30d: '1000000',
        assetAmount: null,
        assetSymbol: null,
        limitPrice: '0.0180',
        marketPrice: '0.0400',
      },
      {
        level: 'VIP 2',
        volume30d: '',
        assetAmount: '50',
        assetSymbol: 'BNB',
        limitPrice: '0.0160',
        marketPrice: '0.0380',
      },
    ];
    const { updatedAt } = await editorEntry(BITGET);
    expect(
      await adminCall(ctx, operator, 'replaceVipTiers', { platId: BITGET, updatedAt, tiers }),
    ).toMatchObject({
      state: 0,
    });
    const detail = (await call(ctx, '/elex/exchange/detail', { platId: BITGET })).json();
    expect(detail.content.vipTiers).toEqual([
      { level: 'VIP 1', volume30d: '1000000', asset: null, limitPrice: '0.0180', marketPrice: '0.0400' },
      {
        level: 'VIP 2',
        volume30d: null,
        asset: { amount: '50', symbol: 'BNB' },
        limitPrice: '0.0160',
        marketPrice: '0.0380',
      },
    ]);
    expect(
      await adminCall(ctx, operator, 'replaceVipTiers', {
        platId: BITGET,
        updatedAt: (await editorEntry(BITGET)).updatedAt,
        tiers: [{ ...tiers[1], assetSymbol: '' }],
      }),
    ).toMatchObject({ state: State.ValidationFailed, message: 'tiers.0.assetSymbol: invalid value' });

    const created = await adminCall(ctx, operator, 'saveActivity', {
      platId: BITGET,
      kind: 'hot',
      titles: { en: 'Fee holiday', zh: '免手续费', ko: '수수료 면제' },
      activityUrl: 'https://example.com/holiday',
      position: 0,
    });
    expect(created.state).toBe(0);
    const hot = async (lang: string) =>
      (await call(ctx, '/elex/exchange/index', {}, { lang })).json().content.hotActivity as Array<{
        title: string;
      }>;
    expect((await hot('zh')).map((activity) => activity.title)).toContain('免手续费');
    await adminCall(ctx, operator, 'saveActivity', {
      id: created.content.id,
      updatedAt: created.content.updatedAt,
      platId: BITGET,
      kind: 'hot',
      titles: { en: 'Fee holiday, extended', zh: '免手续费', ko: '수수료 면제' },
      activityUrl: 'https://example.com/holiday',
      position: 0,
    });
    expect((await hot('en')).map((activity) => activity.title)).toContain('Fee holiday, extended');
    // Ids are strict (issue 13): no loose spelling of this id reaches it.
    const id = Number(created.content.id);
    for (const loose of [true, [id], `0x${id.toString(16)}`, `${id}e0`, `${id}.0`, ` ${id}`]) {
      expect(
        await adminCall(ctx, operator, 'deleteActivity', { id: loose }),
        JSON.stringify(loose),
      ).toMatchObject({
        state: State.ValidationFailed,
        message: 'id: invalid value',
      });
    }
    expect((await hot('en')).map((activity) => activity.title)).toContain('Fee holiday, extended');
    const toRemove = await adminCall(ctx, operator, 'catalog');
    const removedVersion = toRemove.content.exchanges
      .find((entry: { platId: number }) => entry.platId === BITGET)
      .activities.find((activity: { id: number }) => activity.id === created.content.id).updatedAt;
    expect(
      await adminCall(ctx, operator, 'deleteActivity', { id: created.content.id, updatedAt: removedVersion }),
    ).toMatchObject({ state: 0 });
    expect((await hot('en')).map((activity) => activity.title)).not.toContain('Fee holiday, extended');
    expect(
      await adminCall(ctx, operator, 'deleteActivity', { id: created.content.id, updatedAt: removedVersion }),
    ).toMatchObject({ state: State.NotFound });
    expect((await auditRows(`activity:${created.content.id}`)).map((row) => row.action)).toEqual([
      'activity.delete',
      'activity.update',
      'activity.create',
    ]);
  });
});

/**
 * Holds the partner's row FOR KEY SHARE, as every insert of a record, binding or sync run referencing it
 * does until its transaction ends (an import keeps one open for minutes); answers the release.
 */
async function holdLikeAnImport(platId: number): Promise<() => Promise<void>> {
  const held = deferred();
  const released = deferred();
  const importing = ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select id from exchanges where id = ${platId} for key share`);
    held.resolve();
    await released.promise;
  });
  await held.promise;
  return async () => {
    released.resolve();
    await importing;
  };
}

/** The answer, or 'still waiting after 5 s' when a lock keeps it waiting. */
const withinFiveSeconds = (answer: Promise<unknown>) =>
  Promise.race([
    answer,
    new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
  ]);

describe('two operators editing one partner', () => {
  const OKX = 2;

  it('refuses a save built on a version another operator saved since, naming each operator in the audit log', async () => {
    const other = await newOperator(ctx);
    // Both open OKX's editor.
    const mine = await editorEntry(OKX);
    const theirs = await editorEntry(OKX);
    // I change the cash rate and save.
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...mine.fields, cashRate: '55.55' }),
    ).toMatchObject({ state: 0, content: { cashRate: '55.55' } });
    // They change the referral code in the form they opened before: it still holds the old cash rate.
    const stale = await adminCall(
      ctx,
      other,
      'updateExchange',
      { ...theirs.fields, referralCode: 'OKXTHEIRS' },
      'zh',
    );
    expect(stale).toMatchObject({
      state: State.Refused,
      message: translate('zh', 'exchangeEditedMeanwhile'),
    });
    const now = await editorEntry(OKX);
    expect(now.fields).toMatchObject({ cashRate: '55.55', referralCode: mine.fields.referralCode });
    // The VIP table too: a table saved from the old version is refused.
    expect(
      await adminCall(ctx, other, 'replaceVipTiers', { platId: OKX, updatedAt: theirs.updatedAt, tiers: [] }),
    ).toMatchObject({ state: State.Refused, message: translate('en', 'exchangeEditedMeanwhile') });
    expect((await editorEntry(OKX)).vipTiers).toEqual(mine.vipTiers);
    // Reloaded, their change goes in on top of mine.
    expect(
      await adminCall(ctx, other, 'updateExchange', { ...now.fields, referralCode: 'OKXTHEIRS' }),
    ).toMatchObject({ state: 0, content: { cashRate: '55.55', referralCode: 'OKXTHEIRS' } });
    const [second, first] = await auditRows(`exchange:${OKX}`);
    expect(first).toMatchObject({
      action: 'exchange.update',
      actor: operator.email,
      after: { cashRate: '55.55' },
    });
    expect(second).toMatchObject({
      action: 'exchange.update',
      actor: other.email,
      after: { referralCode: 'OKXTHEIRS' },
    });
  });

  // PGlite is one connection: nothing there can hold the row while a save runs.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a save does not wait for an import that references the partner (found in review)',
    async () => {
      const loaded = await editorEntry(OKX);
      const release = await holdLikeAnImport(OKX);
      try {
        const outcome = await withinFiveSeconds(
          adminCall(ctx, operator, 'updateExchange', { ...loaded.fields, score: '7.7' }),
        );
        expect(outcome).toMatchObject({ state: 0, content: { score: '7.7' } });
      } finally {
        await release();
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a status change does not wait for an import that references the partner',
    async () => {
      const release = await holdLikeAnImport(OKX);
      const inFiveSeconds = async (path: string) => {
        const { updatedAt } = await editorEntry(OKX);
        return withinFiveSeconds(adminCall(ctx, operator, path, { platId: OKX, updatedAt }));
      };
      try {
        expect(await inFiveSeconds('retireExchange')).toMatchObject({
          state: 0,
          content: { status: 'retired' },
        });
        expect(await inFiveSeconds('reinstateExchange')).toMatchObject({
          state: 0,
          content: { status: 'live' },
        });
      } finally {
        await release();
      }
    },
  );

  it('lets only one of two saves of the same version through, even at the same moment', async () => {
    const loaded = await editorEntry(OKX);
    const answers = await Promise.all(
      ['1.1', '2.2'].map((score) => adminCall(ctx, operator, 'updateExchange', { ...loaded.fields, score })),
    );
    expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused].sort());
  });
});

describe('publish, retire, reinstate and a logo built on a page another operator saved since', () => {
  const SVG = (fill: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="${fill}"/></svg>`;
  const logoCall = (caller: Caller, platId: number, updatedAt: string, fill: string, lang?: string) =>
    adminCall(
      ctx,
      caller,
      'uploadLogo',
      { platId, updatedAt, fileName: `${fill}.svg`, content: Buffer.from(SVG(fill)).toString('base64') },
      lang,
    );
  const actions = async (platId: number) => (await auditRows(`exchange:${platId}`)).map((row) => row.action);

  it('refuses each move made from the old page, changes nothing, and takes it from the page as it is now', async () => {
    const other = await newOperator(ctx);
    const created = await adminCall(ctx, operator, 'createExchange', {
      name: 'Stalex',
      abbreviation: 'STLX',
    });
    const platId = created.content.platId as number;
    const draft = await editorEntry(platId);
    expect(
      await adminCall(ctx, operator, 'updateExchange', {
        ...draft.fields,
        referralCode: 'STALEX1',
        signupUrlTemplate: 'https://www.stalex.example/register?ref={code}',
      }),
    ).toMatchObject({ state: 0 });

    // I open the editor on the completed draft; they lower the cash rate meanwhile.
    const mine = await editorEntry(platId);
    const theirs = await editorEntry(platId);
    expect(
      await adminCall(ctx, other, 'updateExchange', { ...theirs.fields, cashRate: '12.5' }),
    ).toMatchObject({ state: 0 });
    const afterTheirs = await editorEntry(platId);
    // I publish from my page: it did not show their cash rate. Refused in my language, still a draft.
    for (const lang of ['zh', 'en', 'ko'] as const) {
      expect(
        await adminCall(ctx, operator, 'publishExchange', { platId, updatedAt: mine.updatedAt }, lang),
      ).toMatchObject({ state: State.Refused, message: translate(lang, 'exchangeStatusEditedMeanwhile') });
    }
    expect(await editorEntry(platId)).toEqual(afterTheirs);
    // A move without the version it was built on is refused, naming the field.
    expect(await adminCall(ctx, operator, 'publishExchange', { platId })).toMatchObject({
      state: State.ValidationFailed,
      message: 'updatedAt: this field is required',
    });
    // Reloaded, the page shows their cash rate: published, and the answer carries the new version.
    const published = await adminCall(ctx, operator, 'publishExchange', {
      platId,
      updatedAt: afterTheirs.updatedAt,
    });
    expect(published).toMatchObject({ state: 0, content: { status: 'live', cashRate: '12.50' } });
    expect(Date.parse(published.content.updatedAt)).toBeGreaterThan(Date.parse(afterTheirs.updatedAt));
    expect((await editorEntry(platId)).updatedAt).toBe(published.content.updatedAt);
    // A save from a page loaded before the publish is refused: it would not know the partner is live.
    expect(
      await adminCall(ctx, other, 'updateExchange', { ...afterTheirs.fields, cashRate: '13' }),
    ).toMatchObject({ state: State.Refused, message: translate('en', 'exchangeEditedMeanwhile') });

    // Retire and reinstate alike: a page older than their save is refused, the current one goes through.
    for (const [move, status] of [
      ['retireExchange', 'retired'],
      ['reinstateExchange', 'live'],
    ] as const) {
      const seen = await editorEntry(platId);
      const now = await adminCall(ctx, other, 'updateExchange', {
        ...seen.fields,
        score: `${Number(seen.fields.score) + 1}`,
      });
      expect(now.state).toBe(0);
      const before = await editorEntry(platId);
      expect(await adminCall(ctx, operator, move, { platId, updatedAt: seen.updatedAt })).toMatchObject({
        state: State.Refused,
        message: translate('en', 'exchangeStatusEditedMeanwhile'),
      });
      expect(await editorEntry(platId)).toEqual(before);
      const moved = await adminCall(ctx, operator, move, { platId, updatedAt: before.updatedAt });
      expect(moved).toMatchObject({ state: 0, content: { status } });
      expect(Date.parse(moved.content.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    }
    // Each refusal left no entry: create, the two saves, publish, then save and move twice.
    expect(await actions(platId)).toEqual([
      'exchange.reinstate',
      'exchange.update',
      'exchange.retire',
      'exchange.update',
      'exchange.publish',
      'exchange.update',
      'exchange.update',
      'exchange.create',
    ]);
  });

  it('refuses a logo uploaded from the old page: the other operator’s logo stays, no file is stored', async () => {
    const other = await newOperator(ctx);
    const OKX = 2;
    const mine = await editorEntry(OKX);
    const theirs = await editorEntry(OKX);
    const uploaded = await logoCall(other, OKX, theirs.updatedAt, 'red');
    expect(uploaded).toMatchObject({ state: 0, content: { logo: expect.stringMatching(/^\/media\//) } });
    expect(Date.parse(uploaded.content.updatedAt)).toBeGreaterThan(Date.parse(theirs.updatedAt));
    const before = await editorEntry(OKX);
    const files = await countRows(ctx, 'media_files');
    const entries = await actions(OKX);
    const stale = await logoCall(operator, OKX, mine.updatedAt, 'blue', 'ko');
    expect(stale).toMatchObject({ state: State.Refused, message: translate('ko', 'logoEditedMeanwhile') });
    expect(await editorEntry(OKX)).toEqual(before);
    expect(await countRows(ctx, 'media_files')).toBe(files);
    expect(await actions(OKX)).toEqual(entries);
    // Reloaded: mine replaces theirs, and a fields form open from before the upload is refused.
    const replaced = await logoCall(operator, OKX, before.updatedAt, 'blue');
    expect(replaced).toMatchObject({ state: 0 });
    expect(replaced.content.logo).not.toBe(uploaded.content.logo);
    expect(await adminCall(ctx, other, 'updateExchange', { ...before.fields, score: '1.1' })).toMatchObject({
      state: State.Refused,
      message: translate('en', 'exchangeEditedMeanwhile'),
    });
    // Two uploads built on one version at the same moment: one goes through.
    const loaded = await editorEntry(OKX);
    const answers = await Promise.all(
      ['green', 'black'].map((fill) => logoCall(operator, OKX, loaded.updatedAt, fill)),
    );
    expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused].sort());
    expect((await editorEntry(OKX)).fields.logo).toBe(
      answers.find((answer) => answer.state === 0)?.content.logo,
    );
  });
});

describe('two operators editing one activity', () => {
  /** An activity of Bitget as the console's editor loads it. */
  async function loadedActivity(id: number) {
    const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
    const bitget = exchanges.find((entry: { platId: number }) => entry.platId === BITGET);
    const found = bitget.activities.find((activity: { id: number }) => activity.id === id);
    if (!found) throw new Error(`no activity ${id}`);
    return found as {
      id: number;
      platId: number;
      kind: string;
      titles: Record<string, string>;
      activityUrl: string;
      position: number;
      updatedAt: string;
    };
  }

  it('refuses a save built on a version another operator saved since; the first save stays', async () => {
    const other = await newOperator(ctx);
    const created = await adminCall(ctx, operator, 'saveActivity', {
      platId: BITGET,
      kind: 'general',
      titles: { en: 'Deposit bonus', zh: '充值奖励', ko: '입금 보너스' },
      activityUrl: 'https://example.com/deposit',
      position: 3,
    });
    expect(created.state).toBe(0);
    // Both open the activity's dialog.
    const mine = await loadedActivity(created.content.id);
    const theirs = await loadedActivity(created.content.id);
    // I fix the title.
    expect(
      await adminCall(ctx, operator, 'saveActivity', {
        ...mine,
        titles: { ...mine.titles, en: 'Deposit bonus, doubled' },
      }),
    ).toMatchObject({ state: 0, content: { titles: { en: 'Deposit bonus, doubled' } } });
    // They change the link in the dialog they opened before: it still holds the old title.
    const stale = await adminCall(
      ctx,
      other,
      'saveActivity',
      { ...theirs, activityUrl: 'https://example.com/deposit-2' },
      'ko',
    );
    expect(stale).toMatchObject({
      state: State.Refused,
      message: translate('ko', 'activityEditedMeanwhile'),
    });
    expect(await loadedActivity(created.content.id)).toMatchObject({
      titles: { en: 'Deposit bonus, doubled' },
      activityUrl: 'https://example.com/deposit',
    });
    // Reloaded, their change goes in on top of mine.
    const now = await loadedActivity(created.content.id);
    expect(
      await adminCall(ctx, other, 'saveActivity', { ...now, activityUrl: 'https://example.com/deposit-2' }),
    ).toMatchObject({
      state: 0,
      content: { titles: { en: 'Deposit bonus, doubled' }, activityUrl: 'https://example.com/deposit-2' },
    });
    // A change without the version it was built on is refused, naming the field.
    const { updatedAt: _u, ...unversioned } = await loadedActivity(created.content.id);
    expect(await adminCall(ctx, operator, 'saveActivity', unversioned)).toMatchObject({
      state: State.ValidationFailed,
      message: 'updatedAt: this field is required',
    });
    // Two saves of the same version at the same moment: one goes through.
    const loaded = await loadedActivity(created.content.id);
    const answers = await Promise.all(
      [1, 2].map((position) => adminCall(ctx, operator, 'saveActivity', { ...loaded, position })),
    );
    expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused].sort());
  });

  it('refuses a removal confirmed on a version another operator saved since; the current version is removed, audited', async () => {
    const other = await newOperator(ctx);
    const created = await adminCall(ctx, operator, 'saveActivity', {
      platId: BITGET,
      kind: 'hot',
      titles: { en: 'Spring promo', zh: '春季活动', ko: '봄 프로모션' },
      activityUrl: 'https://example.com/spring',
      position: 4,
    });
    expect(created.state).toBe(0);
    const id = created.content.id as number;
    // I open the removal confirmation: it shows this version.
    const seen = await loadedActivity(id);
    // Meanwhile they turn it into another promotion.
    const theirs = await adminCall(ctx, other, 'saveActivity', {
      ...seen,
      titles: { en: 'Summer promo', zh: '夏季活动', ko: '여름 프로모션' },
      activityUrl: 'https://example.com/summer',
    });
    expect(theirs.state).toBe(0);
    const afterTheirs = await loadedActivity(id);
    // I confirm: refused in my language, theirs stays as they saved it.
    for (const lang of ['zh', 'en', 'ko'] as const) {
      expect(
        await adminCall(ctx, operator, 'deleteActivity', { id, updatedAt: seen.updatedAt }, lang),
      ).toMatchObject({ state: State.Refused, message: translate(lang, 'activityEditedMeanwhile') });
    }
    expect(await loadedActivity(id)).toEqual(afterTheirs);
    // A removal without the version it was confirmed on is refused, naming the field.
    expect(await adminCall(ctx, operator, 'deleteActivity', { id })).toMatchObject({
      state: State.ValidationFailed,
      message: 'updatedAt: this field is required',
    });
    expect(await loadedActivity(id)).toEqual(afterTheirs);
    // Confirmed again on their version, it goes, and the log names who removed what.
    expect(
      await adminCall(ctx, operator, 'deleteActivity', { id, updatedAt: afterTheirs.updatedAt }),
    ).toMatchObject({ state: 0 });
    await expect(loadedActivity(id)).rejects.toThrow(`no activity ${id}`);
    const [removal] = await auditRows(`activity:${id}`);
    expect(removal).toMatchObject({
      action: 'activity.delete',
      actor: operator.email,
      before: { titles: { en: 'Summer promo' }, activityUrl: 'https://example.com/summer' },
      after: null,
    });
  });

  it('lets a save and a removal of the same version meet: one goes through, never a removal of a save unseen', async () => {
    const created = await adminCall(ctx, operator, 'saveActivity', {
      platId: BITGET,
      kind: 'general',
      titles: { en: 'Race promo', zh: '竞速活动', ko: '레이스 프로모션' },
      activityUrl: 'https://example.com/race',
      position: 5,
    });
    const id = created.content.id as number;
    const seen = await loadedActivity(id);
    const [saved, removed] = await Promise.all([
      adminCall(ctx, operator, 'saveActivity', { ...seen, activityUrl: 'https://example.com/race-2' }),
      adminCall(ctx, operator, 'deleteActivity', { id, updatedAt: seen.updatedAt }),
    ]);
    const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
    const still = exchanges
      .find((entry: { platId: number }) => entry.platId === BITGET)
      .activities.find((activity: { id: number }) => activity.id === id);
    if (saved.state === 0) {
      // The save came first: the removal, confirmed on the version before it, is refused.
      expect(removed).toMatchObject({
        state: State.Refused,
        message: translate('en', 'activityEditedMeanwhile'),
      });
      expect(still).toMatchObject({ activityUrl: 'https://example.com/race-2' });
    } else {
      // The removal came first: the save finds nothing to change.
      expect([saved.state, removed.state]).toEqual([State.NotFound, 0]);
      expect(still).toBeUndefined();
    }
  });
});

describe('abbreviations', () => {
  it('are unique whatever the letter case, on creation and on a save', async () => {
    expect(
      await adminCall(ctx, operator, 'createExchange', { name: 'Case One', abbreviation: 'CASE1' }),
    ).toMatchObject({ state: 0 });
    const before = await countRows(ctx, 'exchanges');
    expect(
      await adminCall(ctx, operator, 'createExchange', { name: 'Case Two', abbreviation: 'case1' }, 'zh'),
    ).toMatchObject({ state: State.Refused, message: translate('zh', 'abbreviationTaken') });
    expect(await countRows(ctx, 'exchanges')).toBe(before);
    // Bitget's own abbreviation in another case is a save of its own, not a clash.
    const bitget = await editorEntry(BITGET);
    expect(
      await adminCall(ctx, operator, 'updateExchange', {
        ...bitget.fields,
        abbreviation: bitget.fields.abbreviation.toLowerCase(),
      }),
    ).toMatchObject({ state: 0 });
    const lowered = await editorEntry(BITGET);
    expect(
      await adminCall(ctx, operator, 'updateExchange', {
        ...lowered.fields,
        ...bitget.fields,
        updatedAt: lowered.updatedAt,
      }),
    ).toMatchObject({ state: 0 });
    const okx = await editorEntry(2);
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...okx.fields, abbreviation: 'Case1' }),
    ).toMatchObject({ state: State.Refused, message: translate('en', 'abbreviationTaken') });
    expect((await editorEntry(2)).fields.abbreviation).toBe(okx.fields.abbreviation);
  });
});

describe('logo upload', () => {
  const upload = async (fileName: string, bytes: Buffer | string, platId = BITGET) =>
    adminCall(ctx, operator, 'uploadLogo', {
      platId,
      updatedAt: (await editorEntry(platId)).updatedAt,
      fileName,
      content: Buffer.from(bytes).toString('base64'),
    });
  const logoOf = async (platId: number) =>
    (await adminCall(ctx, operator, 'catalog')).content.exchanges.find(
      (entry: { platId: number }) => entry.platId === platId,
    ).logo as string;

  // A 1x1 PNG.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  it('stores a clean SVG under its hash and serves it with its type and a CSP that runs nothing', async () => {
    const svg =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 32 32">' +
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>' +
      '<style>.a{fill:url(#g)}</style><circle class="a" cx="16" cy="16" r="15"/><use xlink:href="#g"/></svg>';
    const answer = await upload('mark.svg', svg);
    expect(answer).toMatchObject({
      state: 0,
      content: { logo: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.svg$/) },
    });
    const served = await ctx.app.inject({ method: 'GET', url: answer.content.logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.body).toBe(svg);
    const index = (await call(ctx, '/elex/exchange/index')).json();
    expect(index.content.allExchange.find((entry: { platId: number }) => entry.platId === BITGET).logo).toBe(
      answer.content.logo,
    );
    const wrongExtension = answer.content.logo.replace(/\.svg$/, '.png');
    expect((await ctx.app.inject({ method: 'GET', url: wrongExtension })).statusCode).toBe(404);
  });

  it.each([
    ['a script element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'],
    [
      'a javascript: link',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
    ],
    [
      'an external reference',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://evil.example/x.svg#a"/></svg>',
    ],
    [
      'foreign content',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>',
    ],
    [
      'an entity declaration',
      '<!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
    ],
    [
      'CSS that loads a URL',
      '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css);</style></svg>',
    ],
    [
      'an animation that rewrites a link',
      '<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="href" to="javascript:alert(1)"/></svg>',
    ],
    [
      'an embedded image',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/png;base64,AAAA"/></svg>',
    ],
  ])('refuses an SVG with %s and changes nothing', async (_label, svg) => {
    const logo = await logoOf(BITGET);
    const files = await countRows(ctx, 'media_files');
    expect(await upload('logo.svg', svg)).toMatchObject({
      state: State.Refused,
      message: 'This SVG contains scripts, links or external content and was refused',
    });
    expect(await logoOf(BITGET)).toBe(logo);
    expect(await countRows(ctx, 'media_files')).toBe(files);
  });

  it('reads the type from the content: a PNG named .svg is a PNG, an HTML page named .png is refused', async () => {
    const answer = await upload('disguised.svg', PNG);
    expect(answer.content.logo).toMatch(/^\/media\/[0-9a-f]{64}\.png$/);
    const served = await ctx.app.inject({ method: 'GET', url: answer.content.logo });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(await upload('logo.png', '<html><script>alert(1)</script></html>')).toMatchObject({
      state: State.Refused,
      message: 'The logo must be an SVG, PNG or WebP image',
    });
    expect(await upload('logo.png', PNG.subarray(0, 20))).toMatchObject({ state: State.Refused });
  });

  it('refuses a file over 200 KB', async () => {
    const big = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(205 * 1024)}</desc></svg>`;
    const answer = await upload('big.svg', big);
    expect(answer.state).not.toBe(0);
    expect(answer.message).toMatch(/200 KB/);
  });
});

describe('CSV upload', () => {
  function file(lines: readonly string[]) {
    const text = `${lines.join('\n')}\n`;
    const name = path.join(dir, `upload-${Math.random().toString(36).slice(2)}.csv`);
    fs.writeFileSync(name, text);
    return { text, name };
  }

  it('checks a file exactly like the command: every bad line listed, nothing imported', async () => {
    ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
    const good = nextUid('K');
    const { text, name } = file([
      'uid,registered_at',
      `${good},2026-01-02T00:00:00Z`,
      'x,2026-01-02T00:00:00Z',
      `${nextUid('K')},yesterday`,
      `${good},2026-01-03T00:00:00Z`,
      `${nextUid('K')},2026-01-02T10:00:00`,
    ]);
    const roster = await countRows(ctx, 'referrals');
    const out: string[] = [];
    const err: string[] = [];
    expect(
      await referralsImport.run(
        ctx.deps,
        [String(BITGET), name],
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        testOperatorActor,
      ),
    ).toBe(1);
    const answer = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'referrals',
      platId: BITGET,
      fileName: 'roster.csv',
      csv: text,
    });
    expect(answer).toMatchObject({ state: 0, content: { status: 'rejected', inserted: 0 } });
    // The command prints one line per problem after its summary: the upload lists the same problems.
    expect(
      answer.content.problems.map(
        (problem: { line: number; field: string; reason: string }) =>
          `  line ${problem.line}, ${problem.field}: ${problem.reason}`,
      ),
    ).toEqual(err.slice(1));
    expect(answer.content.problems.map((problem: { line: number }) => problem.line)).toEqual([3, 4, 5, 6]);
    expect(await countRows(ctx, 'referrals')).toBe(roster);
  });

  it('says each problem of a file in the operator’s language, in the answer and in the run history', async () => {
    ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
    const uid = nextUid('L');
    const { text } = file([
      'uid,period_start,period_end,trading_volume,fee,commission',
      `${uid},2026-05-20T00:00:00Z,2026-05-21T00:00:00Z,1000,10.1234567,8`,
      `x,2026-05-21T00:00:00,2026-05-22T00:00:00Z,-5,20,16`,
    ]);
    const upload = (lang: string) =>
      adminCall(
        ctx,
        operator,
        'uploadImport',
        { kind: 'rebates', platId: BITGET, fileName: 'bad.csv', csv: text },
        lang,
      );
    const reasons = (answer: { content: { problems: Array<{ reason: string }> } }) =>
      answer.content.problems.map((problem) => problem.reason);
    expect(reasons(await upload('ko'))).toEqual([
      '소수점 6자리를 넘습니다 ("10.1234567")',
      'UID가 아닙니다 (영문자, 숫자, - 또는 _ 4~32자) ("x")',
      '시간에 시간대(Z 또는 +hh:mm)가 필요합니다 ("2026-05-21T00:00:00")',
      '음수입니다 ("-5")',
    ]);
    expect(reasons(await upload('en'))).toEqual([
      'more than 6 decimals ("10.1234567")',
      'not a UID (4 to 32 letters, digits, - or _) ("x")',
      'the time needs its zone, Z or +hh:mm ("2026-05-21T00:00:00")',
      'negative ("-5")',
    ]);
    const runs = (await adminCall(ctx, operator, 'importRuns', { pageSize: 1 }, 'zh')).content;
    expect(runs.rows[0].problems.map((problem: { reason: string }) => problem.reason)).toEqual([
      '小数超过 6 位（"10.1234567"）',
      '不是 UID（4 至 32 位字母、数字、- 或 _）（"x"）',
      '时间需带时区，Z 或 +hh:mm（"2026-05-21T00:00:00"）',
      '为负数（"-5"）',
    ]);
  });

  it('names roster lines that restate a known UID with another registration time; the first time stays', async () => {
    ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
    const [moved, same, dayOnly, fresh] = [nextUid('T'), nextUid('T'), nextUid('T'), nextUid('T')];
    const first = file([
      'uid,registered_at',
      `${moved},2026-01-02T10:00:00Z`,
      `${same},2026-01-02T10:00:00Z`,
      `${dayOnly},2026-01-02T10:30:00Z`,
    ]);
    expect(
      await adminCall(ctx, operator, 'uploadImport', {
        kind: 'referrals',
        platId: BITGET,
        fileName: 'roster-1.csv',
        csv: first.text,
      }),
    ).toMatchObject({ state: 0, content: { status: 'succeeded', inserted: 3 } });
    const second = file([
      'uid,registered_at',
      `${fresh},2026-01-06T00:00:00Z`,
      `${moved},2026-01-05T10:00:00Z`,
      `${same},2026-01-02T10:00:00Z`,
      // The day alone (midnight UTC) of the stored time: the same registration, not named.
      `${dayOnly},2026-01-02T00:00:00Z`,
    ]);
    const answer = await adminCall(
      ctx,
      operator,
      'uploadImport',
      { kind: 'referrals', platId: BITGET, fileName: 'roster-2.csv', csv: second.text },
      'zh',
    );
    expect(answer).toMatchObject({
      state: 0,
      content: {
        status: 'succeeded',
        inserted: 1,
        duplicates: 3,
        problems: [],
        notices: [
          {
            line: 3,
            field: 'registered_at',
            reason: `UID ${moved} 已在名单中，注册时间为 2026-01-02 10:00 UTC；此行写的是 2026-01-05 10:00 UTC：保留已存的时间`,
          },
        ],
      },
    });
    expect(answer.content.notices).toHaveLength(1);
    // The first time stays.
    const [row] = rowsOf<{ registered_at: Date | string }>(
      await ctx.db.execute(
        sql`select registered_at from referrals where plat_id = ${BITGET} and uid = ${moved}`,
      ),
    );
    expect(new Date(row?.registered_at ?? 0).toISOString()).toBe('2026-01-02T10:00:00.000Z');
    // The history keeps them, in the operator's language.
    const runs = (await adminCall(ctx, operator, 'importRuns', { pageSize: 1 }, 'ko')).content;
    expect(runs.rows[0]).toMatchObject({
      status: 'succeeded',
      problemCount: 0,
      problems: [],
      noticeCount: 1,
      notices: [
        {
          line: 3,
          field: 'registered_at',
          reason: `UID ${moved}은(는) 이미 명단에 있으며 등록 시각은 2026-01-02 10:00 UTC입니다. 이 행에는 2026-01-05 10:00 UTC로 적혀 있습니다: 저장된 시각이 유지됩니다`,
        },
      ],
    });
    // The command says the same in English.
    const out: string[] = [];
    expect(
      await referralsImport.run(
        ctx.deps,
        [String(BITGET), second.name],
        { out: (l) => out.push(l), err: () => {} },
        testOperatorActor,
      ),
    ).toBe(0);
    expect(out).toContain(
      `  line 3, registered_at: UID ${moved} is already in the roster, registered at 2026-01-02 10:00 UTC; this line says 2026-01-05 10:00 UTC: the stored time stays`,
    );
    expect(out.join('\n')).toMatch(
      /1 line\(s\) state another registration time for a UID already in the roster/,
    );
  });

  it('imports a good rebate file, settles it, and lists the run with its result', async () => {
    const uid = nextUid('R');
    await addToRoster(ctx, BITGET, uid);
    const { text } = file([
      'uid,period_start,period_end,trading_volume,fee,commission',
      `${uid},2026-05-20T00:00:00Z,2026-05-21T00:00:00Z,1000,10,8`,
      `${uid},2026-05-21T00:00:00Z,2026-05-22T00:00:00Z,1000,20,16`,
    ]);
    const answer = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'rebates',
      platId: BITGET,
      fileName: 'figures.csv',
      csv: text,
    });
    expect(answer).toMatchObject({
      state: 0,
      content: {
        status: 'succeeded',
        rows: 2,
        inserted: 2,
        duplicates: 0,
        settledCompleted: 2,
        problems: [],
      },
    });
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBeGreaterThan(0n);
    const again = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'rebates',
      platId: BITGET,
      fileName: 'figures.csv',
      csv: text,
    });
    expect(again.content).toMatchObject({ status: 'succeeded', inserted: 0, duplicates: 2 });
    // An overlap with stored figures is only found by the ingest: still every problem by line.
    const overlap = file([
      'uid,period_start,period_end,trading_volume,fee,commission',
      `${uid},2026-05-20T12:00:00Z,2026-05-21T12:00:00Z,1000,10,8`,
    ]);
    const refused = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'rebates',
      platId: BITGET,
      fileName: 'overlap.csv',
      csv: overlap.text,
    });
    expect(refused.content).toMatchObject({
      status: 'rejected',
      problems: [{ line: 2, field: 'period_start' }],
    });
    const err: string[] = [];
    await rebatesImport.run(
      ctx.deps,
      [String(BITGET), overlap.name],
      { out: () => {}, err: (l) => err.push(l) },
      testOperatorActor,
    );
    expect(err.slice(1)).toEqual([`  line 2, period_start: ${refused.content.problems[0].reason}`]);

    // The command's attempt is in the same history, under the operator who ran it.
    const runs = (await adminCall(ctx, operator, 'importRuns', { pageSize: 4 })).content;
    expect(runs.rows.map((run: { fileName: string; status: string }) => [run.fileName, run.status])).toEqual([
      [path.basename(overlap.name), 'rejected'],
      ['overlap.csv', 'rejected'],
      ['figures.csv', 'succeeded'],
      ['figures.csv', 'succeeded'],
    ]);
    expect(runs.rows[0]).toMatchObject({ operator: testOperatorActor.label, problemCount: 1 });
    expect(runs.rows[1]).toMatchObject({ operator: operator.email });
    expect(runs.rows[3]).toMatchObject({
      operator: operator.email,
      inserted: 2,
      kind: 'rebates',
      platId: BITGET,
    });
    expect((await auditRows(`import:${runs.rows[3].id}`))[0]).toMatchObject({
      action: 'import.rebates',
      actor: operator.email,
      after: { status: 'succeeded', inserted: 2 },
    });
  });

  it('refuses an unknown exchange', async () => {
    expect(
      await adminCall(ctx, operator, 'uploadImport', {
        kind: 'referrals',
        platId: 999,
        fileName: 'a.csv',
        csv: 'uid\n',
      }),
    ).toMatchObject({ state: State.NotFound });
  });
});

describe('members', () => {
  it('finds a member by part of the e-mail, user code and UID; shows bindings, balances and the ledger', async () => {
    const member = await fundedMember(ctx, { cashback: '42.5' });
    const { userCode } = (await call(ctx, '/elex/user/profile', {}, { token: member.token })).json().content;
    for (const query of [member.email.slice(0, 12).toUpperCase(), userCode.toLowerCase(), member.uid]) {
      const found = await adminCall(ctx, operator, 'searchMembers', { query });
      // With the count of live UIDs the list shows (found 2026-11-29: it counted the bindings whose
      // own id equalled their member's id).
      expect(found.content.rows).toContainEqual(
        expect.objectContaining({ userId: member.userId, liveBindings: 1 }),
      );
    }
    expect((await adminCall(ctx, operator, 'searchMembers', { query: '%' })).content.total).toBe(0);
    const detail = await adminCall(ctx, operator, 'memberDetail', { userId: member.userId });
    expect(detail.content).toMatchObject({
      member: { userId: member.userId, email: member.email, userCode, liveBindings: 1, isOperator: false },
      bindings: [
        { platId: member.platId, uid: member.uid, address: ADDRESS, unboundAt: null, balance: '42.500000' },
      ],
      balances: { cashback: '42.500000', rewards: '0.000000' },
    });
    const ledger = await adminCall(ctx, operator, 'memberLedger', { userId: member.userId });
    expect(ledger.content).toMatchObject({
      total: 1,
      rows: [
        {
          kind: 'rebate',
          account: `cashback:${member.platId}:${member.uid}`,
          amount: '42.500000',
          balanceAfter: '42.500000',
        },
      ],
    });
    expect(await adminCall(ctx, operator, 'memberDetail', { userId: 987654 })).toMatchObject({
      state: State.NotFound,
      message: 'No such member',
    });
  });

  it('refuses to unbind a UID while a withdrawal of it is under review: its cashback would return to the next holder', async () => {
    const member = await fundedMember(ctx, { cashback: '80' });
    const requested = await applyDeposit(ctx, member, { amount: '60', authCode: await ownCode(ctx, member) });
    const id = requested.content?.id ?? '';
    const unbind = () =>
      adminCall(ctx, operator, 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'Disputed',
      });
    expect(await unbind()).toMatchObject({
      state: State.Refused,
      message: 'A withdrawal of this UID is under review: decide it first',
    });
    expect(
      (await call(ctx, '/elex/user/myInfo', {}, { token: member.token })).json().content.exchangeBinds,
    ).toHaveLength(1);
    expect(
      await adminCall(ctx, operator, 'rejectWithdrawal', { id, reason: 'Ownership in question' }),
    ).toMatchObject({ state: 0 });
    expect(await unbind()).toMatchObject({ state: 0, content: { balance: '80.000000' } });
  });

  it('refuses an operator unbinding their own UID: another operator decides about their bindings', async () => {
    const self = await fundedMember(ctx, { cashback: '30' });
    await grantOperator(ctx.deps, self.email, { userId: null, label: 'cli:test' });
    const input = { userId: self.userId, platId: self.platId, uid: self.uid, reason: 'Disputed' };
    expect(await adminCall(ctx, self, 'unbindUid', input, 'ko')).toMatchObject({
      state: State.Refused,
      message: translate('ko', 'unbindOwnAccount'),
    });
    expect(
      (await call(ctx, '/elex/user/myInfo', {}, { token: self.token })).json().content.exchangeBinds,
    ).toHaveLength(1);
    expect(await adminCall(ctx, operator, 'unbindUid', input)).toMatchObject({ state: 0 });
  });

  it('keeps an unbound UID’s history on the member’s ledger, marked as no longer bound', async () => {
    const member = await fundedMember(ctx, { cashback: '64' });
    const account = `cashback:${member.platId}:${member.uid}`;
    const before = await adminCall(ctx, operator, 'memberLedger', { userId: member.userId });
    expect(before.content).toMatchObject({
      total: 1,
      rows: [{ kind: 'rebate', account, amount: '64.000000', bindingEnded: false }],
    });
    expect(
      await adminCall(ctx, operator, 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'Disputed ownership',
      }),
    ).toMatchObject({ state: 0 });
    const after = await adminCall(ctx, operator, 'memberLedger', { userId: member.userId });
    expect(after.content).toMatchObject({
      total: 1,
      rows: [{ kind: 'rebate', account, amount: '64.000000', balanceAfter: '64.000000', bindingEnded: true }],
    });
    // Bound again by the same member: live again.
    expect(
      (
        await call(
          ctx,
          '/elex/user/bindExchangeUid',
          { platId: member.platId, uid: member.uid, address: ADDRESS },
          { token: member.token },
        )
      ).json(),
    ).toMatchObject({ state: 0 });
    const rebound = await adminCall(ctx, operator, 'memberLedger', { userId: member.userId });
    expect(rebound.content.rows).toMatchObject([{ account, bindingEnded: false }]);
  });

  it('unbinds a disputed UID with a reason; its balance stays with the UID until it is bound again', async () => {
    const member = await fundedMember(ctx, { cashback: '55' });
    expect(
      await adminCall(ctx, operator, 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: ' ',
      }),
    ).toMatchObject({ state: State.ValidationFailed, message: 'reason: Please give a reason' });
    const answer = await adminCall(ctx, operator, 'unbindUid', {
      userId: member.userId,
      platId: member.platId,
      uid: member.uid,
      reason: 'The exchange says the account belongs to someone else',
    });
    expect(answer).toMatchObject({
      state: 0,
      message: 'UID unbound; its balance stays with the UID',
      content: { unboundAt: ctx.clock.now().toISOString(), balance: '55.000000' },
    });
    expect((await moneyOf(ctx, member)).cashback).toBe(55_000_000n);
    expect(
      (await call(ctx, '/elex/user/myInfo', {}, { token: member.token })).json().content.exchangeBinds,
    ).toEqual([]);
    expect(
      await adminCall(ctx, operator, 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'again',
      }),
    ).toMatchObject({ state: State.Refused, message: 'This UID is not bound to anyone' });
    const [entry] = await auditRows(`binding:${member.platId}:${member.uid}`);
    expect(entry).toMatchObject({
      action: 'binding.unbind',
      before: { unboundAt: null, balance: '55.000000', userId: member.userId },
      after: {
        unbindReason: 'The exchange says the account belongs to someone else',
        unboundBy: operator.userId,
      },
    });
    // Bound again (by another member): the balance is there.
    const other = await newMember(ctx);
    const rebound = (
      await call(
        ctx,
        '/elex/user/bindExchangeUid',
        { platId: member.platId, uid: member.uid, address: ADDRESS },
        { token: other.token },
      )
    ).json();
    expect(rebound).toMatchObject({ state: 0, content: { balance: '55.000000' } });
  });
  it('unbinds only the member whose page it was asked from: a UID that changed hands since is refused, its new holder keeps it', async () => {
    const member = await fundedMember(ctx, { cashback: '30' });
    // Another operator unbinds it and another member binds it, while this operator's page still shows
    // the first member holding it.
    expect(
      await adminCall(ctx, await newOperator(ctx), 'unbindUid', {
        userId: member.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'The exchange says the account belongs to someone else',
      }),
    ).toMatchObject({ state: 0 });
    const next = await newMember(ctx);
    expect(
      (
        await call(
          ctx,
          '/elex/user/bindExchangeUid',
          { platId: member.platId, uid: member.uid, address: ADDRESS },
          { token: next.token },
        )
      ).json(),
    ).toMatchObject({ state: 0 });
    expect(
      await adminCall(
        ctx,
        operator,
        'unbindUid',
        { userId: member.userId, platId: member.platId, uid: member.uid, reason: 'Squatter' },
        'zh',
      ),
    ).toMatchObject({ state: State.Refused, message: '该 UID 已不再绑定于此会员：请刷新页面' });
    expect(
      (await call(ctx, '/elex/user/myInfo', {}, { token: next.token })).json().content.exchangeBinds,
    ).toMatchObject([{ uid: member.uid, balance: '30.000000' }]);
    const audit = await auditRows(`binding:${member.platId}:${member.uid}`);
    expect(audit).toHaveLength(1);
    // Asked about the member who holds it now, it goes through, and the record names them.
    expect(
      await adminCall(ctx, operator, 'unbindUid', {
        userId: next.userId,
        platId: member.platId,
        uid: member.uid,
        reason: 'Squatter',
      }),
    ).toMatchObject({ state: 0 });
    const [entry] = await auditRows(`binding:${member.platId}:${member.uid}`);
    expect(entry).toMatchObject({ before: { userId: next.userId }, after: { unboundBy: operator.userId } });
  });
});

describe('withdrawal queue', () => {
  it('lists pending withdrawals oldest first with the balance history; approve mails the hash, reject returns the funds', async () => {
    const member = await fundedMember(ctx, { cashback: '300' });
    const ids: string[] = [];
    for (const amount of ['100', '50']) {
      const answer = await applyDeposit(ctx, member, { amount, authCode: await ownCode(ctx, member) });
      ids.push(answer.content?.id ?? '');
      ctx.clock.advance(60_000);
    }
    const queue = await adminCall(ctx, operator, 'withdrawalQueue', {});
    const mine = queue.content.rows.filter(
      (row: { member: { userId: number } }) => row.member.userId === member.userId,
    );
    expect(mine.map((row: { id: string }) => row.id)).toEqual(ids);
    expect(mine[0]).toMatchObject({
      status: 'pending',
      amount: '100.000000',
      member: { email: member.email },
      balanceHistory: expect.arrayContaining([
        expect.objectContaining({ kind: 'rebate', amount: '300.000000' }),
      ]),
    });

    const txHash = `0x${'1f'.repeat(32)}`;
    const approved = await adminCall(ctx, operator, 'approveWithdrawal', { id: ids[0], txHash });
    expect(approved).toMatchObject({ state: 0, content: { status: 'completed', txHash } });
    expect(await adminCall(ctx, operator, 'approveWithdrawal', { id: ids[0], txHash })).toMatchObject({
      state: State.Refused,
      message: 'This withdrawal has already been decided',
    });
    expect(await adminCall(ctx, operator, 'rejectWithdrawal', { id: ids[1], reason: '' })).toMatchObject({
      state: State.ValidationFailed,
    });
    const rejected = await adminCall(ctx, operator, 'rejectWithdrawal', {
      id: ids[1],
      reason: 'Wrong network',
    });
    expect(rejected).toMatchObject({
      state: 0,
      content: { status: 'failed', failureReason: 'Wrong network' },
    });
    // 300 - 100 paid; the 50 held for the rejected one came back.
    expect((await moneyOf(ctx, member)).cashback).toBe(200_000_000n);

    const records = (await call(ctx, '/elex/exchange/depositRecord', {}, { token: member.token })).json();
    expect(records.content.records).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: ids[0], status: 'completed', txHash })]),
    );
    await drainOutbox(ctx.deps);
    const mails = devMailbox(ctx.deps)
      .list()
      .filter((mail) => mail.to === member.email);
    expect(mails.some((mail) => mail.template === 'withdrawalCompleted' && mail.text.includes(txHash))).toBe(
      true,
    );
    expect(
      mails.some((mail) => mail.template === 'withdrawalRejected' && mail.text.includes('Wrong network')),
    ).toBe(true);

    const [approval] = await auditRows(`withdrawal:${ids[0]}`);
    expect(approval).toMatchObject({
      action: 'withdrawal.approve',
      actor: operator.email,
      before: { status: 'pending', txHash: null },
      after: { status: 'completed', txHash, decidedBy: operator.userId },
    });
  });
});

describe('an operator’s own withdrawal', () => {
  it('is decided by another operator only, refused in the caller’s language; nothing changes', async () => {
    const member = await fundedMember(ctx, { cashback: '150' });
    expect(await grantOperator(ctx.deps, member.email, { userId: null, label: 'cli:test' })).toBe(true);
    const requested = await applyDeposit(ctx, member, { amount: '90', authCode: await ownCode(ctx, member) });
    const id = requested.content?.id ?? '';
    const txHash = `0x${'3d'.repeat(32)}`;
    const refusals = {
      en: 'You cannot decide your own withdrawal: another operator must',
      zh: '不能审核自己的提现，请由其他运营人员处理',
      ko: '본인의 출금은 직접 처리할 수 없습니다. 다른 운영자가 처리해야 합니다',
    };
    for (const [lang, message] of Object.entries(refusals)) {
      expect(await adminCall(ctx, member, 'approveWithdrawal', { id, txHash }, lang)).toMatchObject({
        state: State.Refused,
        message,
      });
    }
    expect(await adminCall(ctx, member, 'rejectWithdrawal', { id, reason: 'changed my mind' })).toMatchObject(
      { state: State.Refused, message: refusals.en },
    );
    expect(await getWithdrawal(ctx.deps, id)).toMatchObject({ status: 'pending', txHash: null });
    expect(await moneyOf(ctx, member, id)).toEqual({ cashback: 60_000_000n, rewards: 0n, hold: 90_000_000n });
    expect(await auditRows(`withdrawal:${id}`)).toEqual([]);

    // Another operator may, and the hash the refused attempt named is still free.
    expect(await adminCall(ctx, operator, 'approveWithdrawal', { id, txHash })).toMatchObject({
      state: 0,
      content: { status: 'completed', txHash },
    });
    expect(await auditRows(`withdrawal:${id}`)).toMatchObject([
      { action: 'withdrawal.approve', actor: operator.email },
    ]);
  });
});

describe('an audited decision', () => {
  it('fails whole when its audit entry cannot be written: still pending and held, no mail, no entry', async () => {
    const member = await fundedMember(ctx, { cashback: '120' });
    const requested = await applyDeposit(ctx, member, { amount: '80', authCode: await ownCode(ctx, member) });
    const id = requested.content?.id ?? '';
    const resultMails = async () => {
      const [row] = rowsOf<{ n: string }>(
        await ctx.db.execute(
          sql`select count(*) as n from mail_outbox where user_id = ${member.userId}
              and template in ('withdrawalCompleted', 'withdrawalRejected')`,
        ),
      );
      return Number(row?.n);
    };
    // The audit table refuses an entry without an actor (NOT NULL): the decision's last step, the
    // audit insert, fails in the database after the status, the journal and the mail are written.
    const unrecordable = {
      actor: { userId: operator.userId, label: null as unknown as string },
      requestId: 'audit-fault',
    };
    const txHash = `0x${'2e'.repeat(32)}`;
    await expect(approveAudited(ctx.deps, unrecordable, { id, txHash })).rejects.toThrow();
    await expect(rejectAudited(ctx.deps, unrecordable, { id, reason: 'Wrong network' })).rejects.toThrow();

    expect(await getWithdrawal(ctx.deps, id)).toMatchObject({
      status: 'pending',
      txHash: null,
      failureReason: null,
      decidedAt: null,
      decidedBy: null,
    });
    expect(await moneyOf(ctx, member, id)).toEqual({ cashback: 40_000_000n, rewards: 0n, hold: 80_000_000n });
    expect(await resultMails()).toBe(0);
    expect(await auditRows(`withdrawal:${id}`)).toEqual([]);
    expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);

    // Nothing was half-kept: the same hash pays it now, with one mail and one entry.
    const recordable = { actor: { userId: operator.userId, label: operator.email }, requestId: null };
    expect(await approveAudited(ctx.deps, recordable, { id, txHash })).toMatchObject({
      status: 'completed',
      txHash,
    });
    expect(await resultMails()).toBe(1);
    expect(await auditRows(`withdrawal:${id}`)).toMatchObject([{ action: 'withdrawal.approve' }]);
    expect(await checkWithdrawalInvariants(ctx.db)).toEqual([]);
  });
});

describe('points tasks', () => {
  it('changes a task through the tasks module, audited; refuses a script as an app link', async () => {
    const { tasks } = (await adminCall(ctx, operator, 'taskDefinitions')).content;
    const telegram = tasks.find((task: { id: string }) => task.id === 'telegram');
    const change = {
      id: 'telegram',
      updatedAt: telegram.updatedAt,
      points: telegram.points + 5,
      link: telegram.link,
      appLink: telegram.appLink,
      sortOrder: telegram.sortOrder,
      enabled: telegram.enabled,
    };
    const saved = await adminCall(ctx, operator, 'updateTaskDefinition', change);
    expect(saved).toMatchObject({ state: 0, content: { id: 'telegram', points: telegram.points + 5 } });
    // The next changes are built on the version this save answered.
    change.updatedAt = saved.content.updatedAt;
    expect((await auditRows('task:telegram'))[0]).toMatchObject({
      action: 'task.update',
      before: { points: telegram.points },
      after: { points: telegram.points + 5 },
    });
    for (const appLink of ['javascript:alert(1)', 'java\tscript:alert(1)', 'http://t.me/x']) {
      expect(
        await adminCall(ctx, operator, 'updateTaskDefinition', { ...change, appLink }),
        appLink,
      ).toMatchObject({ state: State.ValidationFailed, message: 'appLink: invalid value' });
    }
    expect(
      await adminCall(ctx, operator, 'updateTaskDefinition', { ...change, link: 'http://t.me/x' }),
    ).toMatchObject({ state: State.ValidationFailed });
  });

  it('refuses a save built on a version another operator saved since; theirs stays', async () => {
    const other = await newOperator(ctx);
    const loaded = async () => {
      const { tasks } = (await adminCall(ctx, operator, 'taskDefinitions')).content;
      return tasks.find((task: { id: string }) => task.id === 'discord');
    };
    const form = (task: Record<string, unknown>) => ({
      id: task.id,
      updatedAt: task.updatedAt,
      points: task.points,
      link: task.link,
      appLink: task.appLink,
      sortOrder: task.sortOrder,
      enabled: task.enabled,
    });
    // Both open the tasks page.
    const mine = form(await loaded());
    const theirs = form(await loaded());
    // They switch the task off.
    expect(await adminCall(ctx, other, 'updateTaskDefinition', { ...theirs, enabled: false })).toMatchObject({
      state: 0,
      content: { enabled: false },
    });
    const afterTheirs = await loaded();
    // My form still shows it on: saving new points would switch it on again, unseen. Refused.
    for (const lang of ['zh', 'en', 'ko'] as const) {
      expect(
        await adminCall(ctx, operator, 'updateTaskDefinition', { ...mine, points: 99 }, lang),
      ).toMatchObject({ state: State.Refused, message: translate(lang, 'taskEditedMeanwhile') });
    }
    expect(await loaded()).toEqual(afterTheirs);
    // Without a version: refused, naming the field.
    const { updatedAt: _u, ...unversioned } = mine;
    expect(await adminCall(ctx, operator, 'updateTaskDefinition', unversioned)).toMatchObject({
      state: State.ValidationFailed,
      message: 'updatedAt: this field is required',
    });
    // Reloaded, my change goes in on top of theirs.
    expect(
      await adminCall(ctx, operator, 'updateTaskDefinition', { ...form(afterTheirs), points: 99 }),
    ).toMatchObject({ state: 0, content: { points: 99, enabled: false } });
  });
});

describe('the audit log', () => {
  it('is append-only: the database refuses to change or remove an entry', async () => {
    const count = await countRows(ctx, 'audit_log');
    expect(count).toBeGreaterThan(0);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(ctx.db.execute(sql`update audit_log set actor = 'someone else'`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(ctx.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    expect(await countRows(ctx, 'audit_log')).toBe(count);
    const actors = rowsOf<{ actor: string }>(await ctx.db.execute(sql`select distinct actor from audit_log`));
    expect(actors.map((row) => row.actor)).not.toContain('someone else');
  });

  it('pages newest first and filters by action', async () => {
    const page = await adminCall(ctx, operator, 'auditLog', { action: 'exchange.update', pageSize: 5 });
    expect(page.content.rows.length).toBeGreaterThan(0);
    expect(page.content.rows.every((row: { action: string }) => row.action === 'exchange.update')).toBe(true);
    const all = (await adminCall(ctx, operator, 'auditLog', { pageSize: 100 })).content.rows as Array<{
      at: string;
    }>;
    expect(all.map((row) => row.at)).toEqual([...all.map((row) => row.at)].sort().reverse());
  });
});

describe('the dashboard', () => {
  it('counts sign-ups, bindings, cashback accrued and paid per day, pending withdrawals and page views', async () => {
    const dash = await createCashbackTestApp();
    try {
      const day = (n: number) => new Date(Date.parse('2026-07-01T00:00:00Z') + n * DAY_MS);
      dash.clock.set(new Date(day(0).getTime() + 9 * 3_600_000));
      const boss = await newOperator(dash);
      const alice = await fundedMember(dash, { cashback: '0', confirmedBy: boss.userId });
      dash.clock.set(new Date(day(1).getTime() + 9 * 3_600_000));
      const bob = await fundedMember(dash, { cashback: '0', confirmedBy: boss.userId });
      // Day 2: figures of day 0 for Alice and Bob settle (fee 10 -> Bitget's 50 %: 5 USDT each).
      dash.clock.set(new Date(day(2).getTime() + 9 * 3_600_000));
      await ingestRebates(
        dash.deps,
        BITGET,
        [alice, bob].map((m) => figures(m.uid, day(0), { fee: '10', commission: '10' })),
        { kind: 'api', label: 'dashboard test' },
      );
      await creditCashback(dash, BITGET, alice.uid, '60');
      // Day 3: Alice asks 55 and an operator pays it; another member asks 70, still pending; page views.
      dash.clock.set(new Date(day(3).getTime() + 9 * 3_600_000));
      const request = await applyDeposit(dash, alice, { amount: '55', authCode: await ownCode(dash, alice) });
      expect(request.state).toBe(0);
      const paid = await adminCall(dash, boss, 'approveWithdrawal', {
        id: request.content?.id,
        txHash: `0x${'2e'.repeat(32)}`,
      });
      expect(paid.state).toBe(0);
      const pending = await fundedMember(dash, { cashback: '80', confirmedBy: boss.userId });
      expect(
        (await applyDeposit(dash, pending, { amount: '70', authCode: await ownCode(dash, pending) })).state,
      ).toBe(0);
      for (const page of ['/', '/', '/exchange', '/admin/members']) {
        await call(dash, '/elex/track', { event: 'page_view', page });
      }
      const answer = await adminCall(dash, boss, 'dashboard', { days: 7 });
      expect(answer.state).toBe(0);
      const days = answer.content.days as Array<Record<string, unknown>>;
      expect(days.map((entry) => entry.day)).toEqual([
        '2026-06-28',
        '2026-06-29',
        '2026-06-30',
        '2026-07-01',
        '2026-07-02',
        '2026-07-03',
        '2026-07-04',
      ]);
      const byDay = Object.fromEntries(days.map((entry) => [entry.day, entry]));
      // Sign-ups: the operator and Alice on day 0, Bob on day 1, the pending member on day 3.
      expect(byDay['2026-07-01']).toMatchObject({ signUps: 2, boundUids: 1 });
      expect(byDay['2026-07-02']).toMatchObject({ signUps: 1, boundUids: 1, cashbackAccrued: '0.000000' });
      // Day 2: 5 + 5 from the figures, 60 from creditCashback (its own hour, settled at once), and the
      // pending member's 80 credited on day 3.
      expect(byDay['2026-07-03']).toMatchObject({ cashbackAccrued: '70.000000', cashbackPaid: '0.000000' });
      expect(byDay['2026-07-04']).toMatchObject({
        signUps: 1,
        boundUids: 1,
        cashbackAccrued: '80.000000',
        cashbackPaid: '55.000000',
      });
      expect(answer.content.totals).toMatchObject({
        members: 4,
        liveBindings: 3,
        signUps: 4,
        boundUids: 3,
        cashbackAccrued: '150.000000',
        cashbackPaid: '55.000000',
      });
      expect(answer.content.pendingWithdrawals).toEqual({ count: 1, amount: '70.000000' });
      expect(answer.content.pageViews).toEqual([
        { page: '/', views: 2 },
        { page: '/exchange', views: 1 },
      ]);
      expect(await adminCall(dash, boss, 'dashboard', { days: 8 })).toMatchObject({
        state: State.ValidationFailed,
      });
    } finally {
      await dash.close();
    }
  }, 120_000);
});
