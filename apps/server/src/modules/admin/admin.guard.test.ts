import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { createWalletClient, http } from 'viem';
import { polygon } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testUsdtAbi } from '../../test/chain/local-chain.js';
import { call, NEW_PASSWORD, PASSWORD } from '../auth/test-support.js';
import { rowsOf } from '../cashback/cashback.repository.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  nextUid,
} from '../cashback/test-support.js';
import { scanWalletTransfers } from '../payouts/payouts.reconciliation.js';
import { payoutConfig, payoutTestChain } from '../payouts/test-support.js';
import { givePromotionCode } from '../promotions/test-support.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../withdrawals/test-support.js';
import { addExchange, changeExchangeStatus, getCatalog, saveExchange } from './catalog.service.js';
import { suspendMember } from './members.service.js';
import { getTaskDefinitions } from './tasks-editor.service.js';
import { adminCall, type Caller, newMember, newOperator, snapshotTables } from './test-support.js';

/**
 * Every operator call checks the role on the server. The routes are read from the app's own route
 * table, so a call added later is tested here without anyone remembering to: it needs a sample
 * payload below (the test fails until it has one), and the same payload must succeed for an operator
 * (so the refusal is the role's doing, not the payload's).
 */
let ctx: CashbackTestContext;
let operator: Caller;
let member: Caller;
let funded: TestMember;
let withdrawalIds: [string, string, string, string];
let samples: Record<string, object>;
let everyTable: string[];

const SAFE_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#f5b83d"/></svg>',
).toString('base64');

beforeAll(async () => {
  // With a payout key and a local chain, so the on-chain sends succeed for an operator too.
  const chain = await payoutTestChain();
  // Read from block 0: the transfer below comes before the server first looks at the wallet.
  ctx = await createCashbackTestApp({ payouts: payoutConfig(chain, { scanFromBlock: 0 }) });
  // A transfer out of the payout wallet that is no payout, for explainTransfer.
  const foreignTransfer = await createWalletClient({
    account: chain.account,
    chain: polygon,
    transport: http(chain.chain.url),
  }).writeContract({
    address: chain.token,
    abi: testUsdtAbi,
    functionName: 'transfer',
    args: ['0x000000000000000000000000000000000000bEEF', 1_000_000n],
  });
  await chain.chain.test.mine({ blocks: 5 });
  ctx.clock.set(new Date('2026-06-01T12:00:00Z'));
  operator = await newOperator(ctx);
  member = await newMember(ctx);
  funded = await fundedMember(ctx, { cashback: '300' });
  const ids: string[] = [];
  for (const amount of ['60', '70', '50', '55']) {
    const answer = await applyDeposit(ctx, funded, { amount, authCode: await ownCode(ctx, funded) });
    expect(answer.state).toBe(0);
    ids.push(answer.content?.id ?? '');
  }
  withdrawalIds = ids as [string, string, string, string];
  await scanWalletTransfers(ctx.deps);

  const catalog = await getCatalog(ctx.deps);
  const binance = catalog.exchanges[0];
  const activity = catalog.exchanges.flatMap((exchange) => exchange.activities)[0];
  if (!binance || !activity) throw new Error('the seeded catalog has no exchange or activity');
  const { platId, status: _status, updatedAt, vipTiers, activities: _a, ...fields } = binance;
  // Another partner's VIP table: the field save moves Binance's updatedAt, which a stale save refuses.
  const bitget = catalog.exchanges.find((exchange) => exchange.platId === BITGET);
  if (!bitget) throw new Error('the seeded catalog has no Bitget');
  const promotion = await givePromotionCode(ctx, 'GUARD-EDIT', { maxUses: 5 });
  const bindXmeVersion = (await getTaskDefinitions(ctx.deps)).tasks.find(
    (task) => task.id === 'bindXme',
  )?.updatedAt;
  // Support requests for the support queue's calls: a dispute to move, an ownership to confirm.
  const squatter = await fundedMember(ctx, { cashback: '0' });
  const holder = await fundedMember(ctx, { cashback: '0' });
  const claimant = await newMember(ctx);
  const openRequest = async (who: { token: string }, body: object) => {
    const answer = (await call(ctx, '/elex/support/create', body, { token: who.token })).json();
    expect(answer.state).toBe(0);
    return answer.content.id as string;
  };
  const dispute = await openRequest(claimant, {
    kind: 'uidBoundByOther',
    platId: squatter.platId,
    uid: squatter.uid,
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    text: 'This UID is mine',
  });
  const ownership = await openRequest(holder, {
    kind: 'ownership',
    platId: holder.platId,
    uid: holder.uid,
    text: 'My account page',
  });
  // issue 12: a draft ready to publish, a retired partner to reinstate, a live one to retire, a
  // suspended member to reinstate, one to suspend and one whose withdrawal lock is to be lifted.
  const setup = { actor: { userId: operator.userId, label: operator.email }, requestId: null };
  const draft = await addExchange(ctx.deps, setup, { name: 'Guardex', abbreviation: 'GDX' });
  const {
    platId: draftId,
    status: _s,
    updatedAt: draftUpdatedAt,
    vipTiers: _dv,
    activities: _da,
    ...draftFields
  } = draft;
  const completed = await saveExchange(
    ctx.deps,
    setup,
    draftId,
    {
      ...draftFields,
      referralCode: 'GUARD01',
      signupUrlTemplate: 'https://guardex.example/join?ref={code}',
    } as never,
    draftUpdatedAt,
  );
  // The logo goes to a partner of its own: the calls run in name order, and a field save or VIP table
  // before it would move the version it carries.
  const [toReinstate, toRetire, logoTarget] = catalog.exchanges.filter(
    (exchange) => exchange.platId !== platId && exchange.platId !== BITGET,
  );
  if (!toReinstate || !toRetire || !logoTarget) throw new Error('the seeded catalog has too few exchanges');
  const retired = await changeExchangeStatus(
    ctx.deps,
    setup,
    toReinstate.platId,
    'retire',
    toReinstate.updatedAt,
  );
  const suspended = await newMember(ctx);
  await suspendMember(ctx.deps, setup, { userId: suspended.userId, reason: 'set up by the guard test' });
  const toSuspend = await newMember(ctx);
  // Without a withdrawal under review, which an unbind waits for.
  const toUnbind = await fundedMember(ctx, { cashback: '10' });
  const locked = await newMember(ctx);
  const changed = (
    await call(
      ctx,
      '/elex/user/updatePass',
      { oldPasswd: PASSWORD, passwd: NEW_PASSWORD },
      { token: locked.token },
    )
  ).json();
  expect(changed.state).toBe(0);
  const question = await openRequest(claimant, { kind: 'other', text: 'A question' });
  const toClose = await openRequest(claimant, { kind: 'account', text: 'Another question' });
  // Pending corrections (above the threshold) another operator proposed: this operator may decide them.
  const proposer = await newOperator(ctx);
  const pendingCorrection = async () => {
    const answer = await adminCall(ctx, proposer, 'corrections/propose', {
      userId: funded.userId,
      account: 'rewards',
      amount: '150',
      reason: 'Guard test',
    });
    expect(answer.content.status).toBe('pending');
    return answer.content.id as number;
  };
  const [toApprove, toReject] = [await pendingCorrection(), await pendingCorrection()];
  samples = {
    whoami: {},
    dashboard: { days: 7 },
    searchMembers: { query: member.email },
    memberDetail: { userId: funded.userId },
    memberLedger: { userId: funded.userId },
    unbindUid: {
      userId: toUnbind.userId,
      platId: toUnbind.platId,
      uid: toUnbind.uid,
      reason: 'disputed by the exchange',
    },
    catalog: {},
    updateExchange: { platId, updatedAt, ...fields, name: 'Renamed by the guard test' },
    replaceVipTiers: { platId: BITGET, updatedAt: bitget.updatedAt, tiers: vipTiers.slice(0, 1) },
    saveActivity: {
      platId,
      kind: 'hot',
      titles: { en: 'Guard test', zh: '测试', ko: '테스트' },
      activityUrl: 'https://example.com/promo',
      position: 99,
    },
    deleteActivity: { id: activity.id, updatedAt: activity.updatedAt },
    uploadLogo: {
      platId: logoTarget.platId,
      updatedAt: logoTarget.updatedAt,
      fileName: 'logo.svg',
      content: SAFE_SVG,
    },
    uploadImport: {
      kind: 'referrals',
      platId: BITGET,
      fileName: 'roster.csv',
      csv: `uid,registered_at\n${nextUid('G')},2026-01-02T00:00:00Z\n`,
    },
    importRuns: {},
    syncRuns: {},
    taskDefinitions: {},
    updateTaskDefinition: {
      id: 'bindXme',
      updatedAt: bindXmeVersion,
      points: 77,
      threshold: null,
      link: null,
      appLink: null,
      sortOrder: 5,
      enabled: true,
    },
    withdrawalQueue: {},
    approveWithdrawal: { id: withdrawalIds[0], txHash: `0x${'ab'.repeat(32)}` },
    rejectWithdrawal: { id: withdrawalIds[1], reason: 'The address is on a sanctions list' },
    sendWithdrawal: { id: withdrawalIds[2] },
    sendWithdrawals: { ids: [withdrawalIds[3]] },
    payoutWallet: {},
    payoutReconciliation: {},
    explainTransfer: { txHash: foreignTransfer, reason: 'Float back to cold storage' },
    promotionCodes: {},
    createPromotionCode: { code: 'guard-new', note: 'Guard test', validThrough: '2026-12-31', maxUses: 10 },
    updatePromotionCode: {
      id: promotion.id,
      updatedAt: promotion.updatedAt.toISOString(),
      disabled: true,
      maxUses: 7,
    },
    auditLog: {},
    'exports/create': { kind: 'withdrawals', from: '2026-05-01', to: '2026-06-01' },
    alertPreferences: {},
    saveAlertPreferences: { dailySummary: false },
    createExchange: { name: 'Guard new', abbreviation: 'GNEW' },
    publishExchange: { platId: draftId, updatedAt: completed.updatedAt },
    reinstateExchange: { platId: toReinstate.platId, updatedAt: retired.updatedAt },
    retireExchange: { platId: toRetire.platId, updatedAt: toRetire.updatedAt },
    suspendMember: { userId: toSuspend.userId, reason: 'guard test' },
    reinstateMember: { userId: suspended.userId, reason: 'guard test' },
    liftWithdrawalLock: { userId: locked.userId, reason: 'guard test' },
    'support/list': {},
    'support/detail': { id: question },
    'support/reply': { id: question, text: 'Our answer' },
    'support/close': { id: toClose, text: 'Done' },
    'support/moveBinding': { id: dispute },
    'support/verifyOwnership': { id: ownership },
    'corrections/list': {},
    'corrections/propose': { userId: funded.userId, account: 'rewards', amount: '1.5', reason: 'Guard test' },
    'corrections/approve': { id: toApprove },
    'corrections/reject': { id: toReject, reason: 'Not needed' },
    'reconciliation/summary': {},
    'reconciliation/roster': { platId: BITGET, uidPrefix: 'G' },
    'reconciliation/rebates': { platId: BITGET },
    'reconciliation/settle': { platId: BITGET },
  };
  everyTable = rowsOf<{ name: string }>(
    await ctx.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    ),
  )
    .map((row) => row.name)
    // A call resolves the caller's session and may note when it was last seen; nothing else may change.
    .filter((name) => name !== 'sessions');
}, 120_000);
afterAll(() => ctx.close());

/** The export download is the one GET: its credential is the one-time link, tested in exports.test.ts. */
const DOWNLOAD = '/elex/admin/exports/download/:token';

const adminRoutes = () =>
  [
    ...new Set(
      ctx.app.routeTable
        .filter((route) => route.url.startsWith('/elex/admin/') && route.url !== DOWNLOAD)
        .map((r) => r.url),
    ),
  ]
    .map((url) => url.slice('/elex/admin/'.length))
    .sort();

describe('the operator role on every /elex/admin call', () => {
  it('finds the console calls in the route table, each with a sample payload', () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.filter((route) => !(route in samples))).toEqual([]);
    expect(Object.keys(samples).filter((route) => !routes.includes(route))).toEqual([]);
    expect(
      ctx.app.routeTable.filter((route) => route.url.startsWith('/elex/admin/') && route.method !== 'POST'),
    ).toEqual([{ method: 'GET', url: DOWNLOAD }]);
  });

  it('answers -5000 to a visitor on every call, and nothing changes', async () => {
    const before = await snapshotTables(ctx, everyTable);
    for (const route of adminRoutes()) {
      const answer = await adminCall(ctx, null, route, samples[route]);
      expect({ route, state: answer.state, content: answer.content }).toEqual({
        route,
        state: State.SessionExpired,
        content: null,
      });
    }
    const other = await adminCall(ctx, { token: 'not-a-session' }, 'whoami');
    expect(other.state).toBe(State.SessionExpired);
    expect(await snapshotTables(ctx, everyTable)).toBe(before);
  });

  it('refuses a member on every call with 1003 forbidden, in the caller language, and nothing changes', async () => {
    const before = await snapshotTables(ctx, everyTable);
    for (const route of adminRoutes()) {
      const answer = await adminCall(ctx, member, route, samples[route]);
      expect({ route, ...answer }).toEqual({
        route,
        state: State.Forbidden,
        message: 'You do not have permission to do this',
        content: null,
      });
    }
    expect((await adminCall(ctx, member, 'catalog', {}, 'zh')).message).toBe('您没有执行此操作的权限');
    expect(await snapshotTables(ctx, everyTable)).toBe(before);
  });

  it('refuses a member before reading the body, however large or malformed', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/elex/admin/uploadImport',
      headers: { 'content-type': 'application/json', token: member.token },
      payload: '{"kind":',
    });
    expect(res.json()).toMatchObject({ state: State.Forbidden });
  });

  it('lets an operator make every one of the same calls', async () => {
    for (const route of adminRoutes()) {
      const answer = await adminCall(ctx, operator, route, samples[route]);
      expect({ route, state: answer.state, message: answer.message }).toMatchObject({ route, state: 0 });
    }
  });

  it('refuses an operator whose role was revoked', async () => {
    const { revokeOperator } = await import('./operators.service.js');
    const former = await newOperator(ctx);
    expect((await adminCall(ctx, former, 'whoami')).state).toBe(0);
    await revokeOperator(ctx.deps, former.email, { userId: null, label: 'cli:test' });
    expect((await adminCall(ctx, former, 'whoami')).state).toBe(State.Forbidden);
  });
});
