import { CodeModule, State, translate } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncableExchangeAdapter } from '../../integrations/exchanges/adapter.js';
import {
  call,
  NEW_PASSWORD,
  nextIp,
  PASSWORD,
  passCoolDown,
  readCode,
  requestCode,
} from '../auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp, nextUid } from '../cashback/test-support.js';
import { resolveSyncTargets } from '../sync/sync.service.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  fundedMember,
  memberCall,
  moneyOf,
  ownCode,
  usdt,
} from '../withdrawals/test-support.js';
import { requestWithdrawal } from '../withdrawals/withdrawals.service.js';
import { grantOperator } from './operators.service.js';
import { adminCall, type Caller, newMember, newOperator } from './test-support.js';

/** issue 12: adding and retiring a partner, suspending a member, lifting a withdrawal lock. */

let ctx: CashbackTestContext;
let operator: Caller;
let counter = 0;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
  operator = await newOperator(ctx);
}, 60_000);
afterAll(async () => {
  await ctx.close();
});

async function auditOf(target: string) {
  const answer = await adminCall(ctx, operator, 'auditLog', { target });
  expect(answer.state).toBe(0);
  return answer.content.rows as Array<{ action: string; actor: string; before: unknown; after: unknown }>;
}

const publicIndex = async () =>
  (await call(ctx, '/elex/exchange/index')).json().content.allExchange as Array<{ platId: number }>;
const dictionary = async () =>
  (await ctx.app.inject({ method: 'GET', url: '/elex/user/config/res.json' })).json().content
    .exchangeList as Array<{ id: number; retired: boolean; signupUrl: string | null }>;

/** A move of the partner from its current version, as the editor's page loaded it. */
async function move(path: 'publishExchange' | 'retireExchange' | 'reinstateExchange', platId: number) {
  const { exchanges } = (await adminCall(ctx, operator, 'catalog')).content;
  const { updatedAt } = exchanges.find((row: { platId: number }) => row.platId === platId);
  return adminCall(ctx, operator, path, { platId, updatedAt });
}

/** A new partner, completed and published through the console, as an operator would. */
async function publishedExchange(): Promise<number> {
  counter += 1;
  const created = await adminCall(ctx, operator, 'createExchange', {
    name: `Newex ${counter}`,
    abbreviation: `NX${counter}`,
  });
  expect(created).toMatchObject({ state: 0, content: { status: 'draft' } });
  const platId = created.content.platId as number;
  const { platId: _id, status: _s, vipTiers: _v, activities: _a, ...fields } = created.content;
  const saved = await adminCall(ctx, operator, 'updateExchange', {
    ...fields,
    platId,
    cashRate: '40',
    limitPrice: '0.02',
    marketPrice: '0.06',
    referralCode: `NEWEX${counter}`,
    signupUrlTemplate: 'https://www.newex.example/register?ref={code}',
  });
  expect(saved.state).toBe(0);
  // The save answers the partner's new version: the page publishes from it.
  const updatedAt = saved.content.updatedAt;
  expect(await adminCall(ctx, operator, 'publishExchange', { platId, updatedAt })).toMatchObject({
    state: 0,
    content: { status: 'live' },
  });
  return platId;
}

describe('adding a partner', () => {
  it('starts as a draft only the console sees, and is published once its sign-up link is real', async () => {
    const created = await adminCall(ctx, operator, 'createExchange', {
      name: 'Draftex',
      abbreviation: 'DFX',
    });
    expect(created).toMatchObject({
      state: 0,
      message: 'Exchange Draftex created as a draft: complete it, then publish it',
      content: { name: 'Draftex', status: 'draft', cashRate: '0.00', referralCode: 'ELEXCB' },
    });
    const platId = created.content.platId as number;
    expect((await publicIndex()).some((row) => row.platId === platId)).toBe(false);
    expect((await dictionary()).some((row) => row.id === platId)).toBe(false);
    const member = await newMember(ctx);
    const bind = await memberCall(ctx, member, '/elex/user/bindExchangeUid', {
      platId,
      uid: nextUid('D'),
      address: ADDRESS,
    });
    expect(bind).toMatchObject({ state: State.NotFound });

    // The placeholder code and the empty link: publishing would send traders nowhere.
    const early = await move('publishExchange', platId);
    expect(early).toMatchObject({
      state: State.Refused,
      message: translate('en', 'exchangePublishNotReady'),
    });
    // The abbreviation is the partner's key: a second one is refused and nothing is added.
    const twin = await adminCall(ctx, operator, 'createExchange', { name: 'Other', abbreviation: 'DFX' });
    expect(twin).toMatchObject({ state: State.Refused, message: translate('en', 'abbreviationTaken') });
    const catalog = await adminCall(ctx, operator, 'catalog');
    expect(catalog.content.exchanges.filter((row: { name: string }) => row.name === 'Other')).toEqual([]);

    const [entry] = await auditOf(`exchange:${platId}`);
    expect(entry).toMatchObject({ action: 'exchange.create', actor: operator.email });

    const live = await publishedExchange();
    expect((await publicIndex()).some((row) => row.platId === live)).toBe(true);
    expect((await auditOf(`exchange:${live}`)).map((row) => row.action)).toEqual([
      'exchange.publish',
      'exchange.update',
      'exchange.create',
    ]);
    expect(await move('publishExchange', live)).toMatchObject({
      state: State.Refused,
      message: translate('en', 'exchangeNotDraft'),
    });
  });

  it('answers a member who tries it 1003 and changes nothing', async () => {
    const member = await newMember(ctx);
    const answer = await adminCall(ctx, member, 'createExchange', { name: 'Sneaky', abbreviation: 'SNK' });
    expect(answer.state).toBe(State.Forbidden);
    const catalog = await adminCall(ctx, operator, 'catalog');
    expect(catalog.content.exchanges.some((row: { name: string }) => row.name === 'Sneaky')).toBe(false);
  });
});

describe('retiring a partner', () => {
  it('leaves the public lists, refuses new bindings in the member language, keeps balances withdrawable', async () => {
    const platId = await publishedExchange();
    const holder = await fundedMember(ctx, { cashback: '80', platId });
    const estimateBody = { platId, leverage: 10, seed: '1000', frequency: 'oneToTwo' };
    expect((await call(ctx, '/elex/exchange/estimate', estimateBody)).json().state).toBe(0);

    const retired = await move('retireExchange', platId);
    expect(retired).toMatchObject({ state: 0, content: { status: 'retired' } });
    expect(retired.message).toBe(translate('en', 'exchangeRetiredDone'));

    expect((await publicIndex()).some((row) => row.platId === platId)).toBe(false);
    expect((await dictionary()).find((row) => row.id === platId)).toMatchObject({
      retired: true,
      signupUrl: null,
    });
    expect((await call(ctx, '/elex/exchange/estimate', estimateBody)).json().state).toBe(State.NotFound);
    // Its page still opens for old links and members' history, saying it is retired, with no sign-up.
    expect((await call(ctx, '/elex/exchange/detail', { platId })).json()).toMatchObject({
      state: 0,
      content: { platId, retired: true, signupUrl: null, referralCode: null },
    });
    const other = (await call(ctx, '/elex/exchange/estimate', { ...estimateBody, platId: 4 })).json();
    expect(other.content.comparisons.some((row: { platId: number }) => row.platId === platId)).toBe(false);

    const newcomer = await newMember(ctx);
    const uid = nextUid('R');
    await addToRoster(ctx, platId, uid);
    for (const lang of ['en', 'zh', 'ko'] as const) {
      const bind = (
        await call(
          ctx,
          '/elex/user/bindExchangeUid',
          { platId, uid, address: ADDRESS },
          { token: newcomer.token, lang },
        )
      ).json();
      expect(bind).toMatchObject({
        state: State.Refused,
        message: translate(lang, 'exchangeRetired'),
        content: { messageKey: 'exchangeRetired' },
      });
    }
    const check = (await call(ctx, '/elex/user/verifyExchangeUid', { platId, uid }, { ip: nextIp() })).json();
    expect(check).toMatchObject({ state: State.Refused, content: { messageKey: 'exchangeRetired' } });

    // The holder keeps the UID, its balance, and can withdraw it.
    const withdrawable = await memberCall(ctx, holder, '/elex/user/withdrawable');
    expect(withdrawable.content.bindings).toEqual([
      expect.objectContaining({ platId, uid: holder.uid, cashback: '80.000000' }),
    ]);
    const withdrawal = await applyDeposit(ctx, holder, {
      amount: '80',
      authCode: await ownCode(ctx, holder),
    });
    expect(withdrawal).toMatchObject({ state: 0, content: { status: 'pending' } });
    expect((await moneyOf(ctx, holder, withdrawal.content?.id)).hold).toBe(usdt('80'));

    // Twice is refused; reinstating brings it back and binding works again.
    expect(await move('retireExchange', platId)).toMatchObject({
      state: State.Refused,
      message: translate('en', 'exchangeNotLive'),
    });
    expect(await move('reinstateExchange', platId)).toMatchObject({
      state: 0,
      content: { status: 'live' },
    });
    expect((await publicIndex()).some((row) => row.platId === platId)).toBe(true);
    const bound = await memberCall(ctx, newcomer, '/elex/user/bindExchangeUid', {
      platId,
      uid,
      address: ADDRESS,
    });
    expect(bound.state).toBe(0);
    expect((await auditOf(`exchange:${platId}`)).slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'exchange.reinstate', actor: operator.email }),
      expect.objectContaining({ action: 'exchange.retire', actor: operator.email }),
    ]);
  });

  it('stops its sync and leaves the other partners synced', async () => {
    const platId = await publishedExchange();
    const catalog = await adminCall(ctx, operator, 'catalog');
    const name = (catalog.content.exchanges as Array<{ platId: number; name: string }>)
      .find((row) => row.platId === platId)
      ?.name.toLowerCase() as string;
    const adapter = (exchange: string) => ({ exchange }) as unknown as SyncableExchangeAdapter;
    const adapters = new Map([
      [name, adapter(name)],
      ['bitget', adapter('bitget')],
    ]);
    const before = await resolveSyncTargets(ctx.deps, adapters);
    expect(before.map((target) => target.platId).sort()).toEqual([4, platId].sort());
    await move('retireExchange', platId);
    const after = await resolveSyncTargets(ctx.deps, adapters);
    expect(after.map((target) => target.platId)).toEqual([4]);
  });
});

describe('suspending a member', () => {
  it('ends their sessions, refuses their login with the reason, lists them, and reinstating restores login', async () => {
    const member = await fundedMember(ctx, { cashback: '60', lang: 'zh' });
    // A code asked for before the suspension: the login itself must refuse too.
    passCoolDown(ctx);
    const ip = nextIp();
    expect(await requestCode(ctx, CodeModule.Login, member.email, { ip })).toMatchObject({ state: 0 });
    const authcode = await readCode(ctx, member.email);

    const reason = 'Chargeback investigation';
    const suspended = await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason });
    expect(suspended).toMatchObject({
      state: 0,
      message: translate('en', 'memberSuspended'),
      content: { member: { suspension: { reason, by: operator.email } } },
    });
    expect(suspended.content.member.suspendedAt).toBe(suspended.content.member.suspension.at);

    expect((await memberCall(ctx, member, '/elex/user/profile')).state).toBe(State.SessionExpired);
    const login = (
      await call(
        ctx,
        '/elex/user/login',
        { email: member.email, passwd: PASSWORD, authcode },
        { ip, lang: 'zh' },
      )
    ).json();
    expect(login).toMatchObject({
      state: State.Refused,
      message: translate('zh', 'accountSuspended', { reason }),
    });
    passCoolDown(ctx);
    for (const lang of ['en', 'ko'] as const) {
      const code = (
        await call(
          ctx,
          '/elex/user/verifyCode',
          { module: CodeModule.Login, email: member.email },
          { ip: nextIp(), lang },
        )
      ).json();
      expect(code).toMatchObject({
        state: State.Refused,
        message: translate(lang, 'accountSuspended', { reason }),
      });
    }
    // Even a request already past the session (a second instance, a race) cannot move money.
    const refused = requestWithdrawal(
      ctx.deps,
      { userId: member.userId, sessionId: 0 },
      {
        requestId: crypto.randomUUID(),
        platId: member.platId,
        uid: member.uid,
        address: ADDRESS,
        amount: '60',
        code: '000000',
      },
    );
    await expect(refused).rejects.toMatchObject({ messageKey: 'withdrawalSuspended' });

    const list = await adminCall(ctx, operator, 'searchMembers', { query: '', suspendedOnly: true });
    expect(list.content.rows).toEqual([
      expect.objectContaining({ userId: member.userId, suspendedAt: expect.any(String) }),
    ]);
    const empty = await adminCall(ctx, operator, 'searchMembers', { query: '' });
    expect(empty.state).toBe(State.ValidationFailed);

    expect(await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason })).toMatchObject({
      state: State.Refused,
      message: translate('en', 'memberAlreadySuspended'),
    });
    const back = await adminCall(ctx, operator, 'reinstateMember', {
      userId: member.userId,
      reason: 'Cleared by the bank',
    });
    expect(back).toMatchObject({ state: 0, content: { member: { suspension: null, suspendedAt: null } } });
    passCoolDown(ctx);
    const again = nextIp();
    expect(await requestCode(ctx, CodeModule.Login, member.email, { ip: again })).toMatchObject({ state: 0 });
    const fresh = (
      await call(
        ctx,
        '/elex/user/login',
        { email: member.email, passwd: PASSWORD, authcode: await readCode(ctx, member.email) },
        { ip: again },
      )
    ).json();
    expect(fresh.state).toBe(0);

    const audit = await auditOf(`user:${member.userId}`);
    expect(audit.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'member.reinstate',
        actor: operator.email,
        after: expect.objectContaining({ reason: 'Cleared by the bank' }),
      }),
      expect.objectContaining({
        action: 'member.suspend',
        actor: operator.email,
        after: expect.objectContaining({ reason, suspendedBy: operator.userId }),
      }),
    ]);
  });

  it('keeps a withdrawal under review for the operator, marked as a suspended member', async () => {
    const member = await fundedMember(ctx, { cashback: '70' });
    const withdrawal = await applyDeposit(ctx, member, {
      amount: '70',
      authCode: await ownCode(ctx, member),
    });
    expect(withdrawal.state).toBe(0);
    await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason: 'Fraud check' });
    const queue = await adminCall(ctx, operator, 'withdrawalQueue', { pageSize: 100 });
    const item = (
      queue.content.rows as Array<{ id: string; status: string; member: { suspendedAt: string | null } }>
    ).find((row) => row.id === withdrawal.content?.id);
    expect(item).toMatchObject({ status: 'pending', member: { suspendedAt: expect.any(String) } });
    expect((await moneyOf(ctx, member, withdrawal.content?.id)).hold).toBe(usdt('70'));

    // Not paid while suspended, by hand either; reinstated, it is paid as before.
    const id = withdrawal.content?.id;
    const txHash = `0x${'5e'.repeat(32)}`;
    expect(await adminCall(ctx, operator, 'approveWithdrawal', { id, txHash })).toMatchObject({
      state: State.Refused,
      message: 'This account is suspended: withdrawals are not available',
    });
    expect((await moneyOf(ctx, member, id)).hold).toBe(usdt('70'));
    expect(
      await adminCall(ctx, operator, 'reinstateMember', { userId: member.userId, reason: 'Checked' }),
    ).toMatchObject({ state: 0 });
    expect(await adminCall(ctx, operator, 'approveWithdrawal', { id, txHash })).toMatchObject({ state: 0 });
  });

  it('refuses a reason left empty, an operator, and a member who is not suspended, changing nothing', async () => {
    const member = await newMember(ctx);
    const blank = await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason: '  ' });
    expect(blank).toMatchObject({ state: State.ValidationFailed });
    expect(blank.message).toContain(translate('en', 'operatorReasonRequired'));
    expect((await memberCall(ctx, member, '/elex/user/profile')).state).toBe(0);
    const other = await newOperator(ctx);
    expect(
      await adminCall(ctx, operator, 'suspendMember', { userId: other.userId, reason: 'x' }),
    ).toMatchObject({
      state: State.Refused,
      message: translate('en', 'operatorNotSuspendable'),
    });
    expect(
      await adminCall(ctx, operator, 'reinstateMember', { userId: member.userId, reason: 'x' }),
    ).toMatchObject({
      state: State.Refused,
      message: translate('en', 'memberNotSuspended'),
    });
    expect(await adminCall(ctx, operator, 'suspendMember', { userId: 999_999, reason: 'x' })).toMatchObject({
      state: State.NotFound,
    });
    expect(await auditOf(`user:${member.userId}`)).toEqual([]);
  });
});

describe('lifting the 72 h withdrawal lock', () => {
  it('lets the member withdraw at once, with the reason audited and shown on the member page', async () => {
    const member = await fundedMember(ctx, { cashback: '55' });
    const changed = await memberCall(ctx, member, '/elex/user/updatePass', {
      oldPasswd: PASSWORD,
      passwd: NEW_PASSWORD,
    });
    expect(changed.state).toBe(0);
    const lockedUntil = changed.content.withdrawalLockedUntil as string;
    const locked = await applyDeposit(ctx, member, { amount: '55', authCode: await ownCode(ctx, member) });
    expect(locked).toMatchObject({ state: State.Refused });
    expect(locked.message).toContain('password');

    const reason = 'Member called from the registered phone';
    const lifted = await adminCall(ctx, operator, 'liftWithdrawalLock', { userId: member.userId, reason });
    expect(lifted).toMatchObject({
      state: 0,
      message: translate('en', 'withdrawalLockLifted'),
      content: {
        member: {
          withdrawalLockedUntil: null,
          lockLifted: { reason, by: operator.email, lockedUntil },
        },
      },
    });
    const withdrawal = await applyDeposit(ctx, member, {
      amount: '55',
      authCode: await ownCode(ctx, member),
    });
    expect(withdrawal).toMatchObject({ state: 0, content: { status: 'pending' } });

    expect(
      await adminCall(ctx, operator, 'liftWithdrawalLock', { userId: member.userId, reason }),
    ).toMatchObject({
      state: State.Refused,
      message: translate('en', 'withdrawalNotLocked'),
    });
    const [entry] = await auditOf(`user:${member.userId}`);
    expect(entry).toMatchObject({
      action: 'member.liftWithdrawalLock',
      actor: operator.email,
      before: { withdrawalLockedUntil: lockedUntil },
      after: { withdrawalLockedUntil: null, reason },
    });
  });
  it('refuses an operator lifting their own lock: a second operator must, who may', async () => {
    const self = await fundedMember(ctx, { cashback: '55' });
    await grantOperator(ctx.deps, self.email, { userId: null, label: 'cli:test' });
    const changed = await memberCall(ctx, self, '/elex/user/updatePass', {
      oldPasswd: PASSWORD,
      passwd: NEW_PASSWORD,
    });
    expect(changed.state).toBe(0);
    const lockedUntil = changed.content.withdrawalLockedUntil as string;
    const reason = 'I changed it myself';
    expect(await adminCall(ctx, self, 'liftWithdrawalLock', { userId: self.userId, reason })).toMatchObject({
      state: State.Refused,
      message: translate('en', 'withdrawalLockOwnAccount'),
    });
    const detail = await adminCall(ctx, operator, 'memberDetail', { userId: self.userId });
    expect(detail.content.member).toMatchObject({ withdrawalLockedUntil: lockedUntil, lockLifted: null });
    expect(await applyDeposit(ctx, self, { amount: '55', authCode: await ownCode(ctx, self) })).toMatchObject(
      {
        state: State.Refused,
      },
    );
    expect(await auditOf(`user:${self.userId}`)).toMatchObject([{ action: 'operator.grant' }]);
    expect(
      await adminCall(ctx, operator, 'liftWithdrawalLock', {
        userId: self.userId,
        reason: 'Checked by phone',
      }),
    ).toMatchObject({ state: 0, content: { member: { withdrawalLockedUntil: null } } });
  });
});
