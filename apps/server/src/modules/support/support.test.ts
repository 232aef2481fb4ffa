import { forfeitOnDeletion, State, SUPPORT } from '@elex/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../admin/audit.service.js';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { users } from '../auth/auth.tables.js';
import { call, mailsTo, PASSWORD } from '../auth/test-support.js';
import { exchangeBindings } from '../bindings/bindings.tables.js';
import { checkAllInvariants } from '../cashback/cashback.check.js';
import { DAY_MS, nextUid } from '../cashback/test-support.js';
import { invalidateCatalogCache } from '../exchanges/exchanges.service.js';
import {
  ADDRESS,
  addToRoster,
  applyDeposit,
  BITGET,
  createWithdrawalTestApp,
  creditCashback,
  fundedMember,
  memberCall,
  moneyOf,
  OTHER_ADDRESS,
  openDispute,
  ownCode,
  registerMember,
  type TestMember,
  TINY_PNG,
} from '../withdrawals/test-support.js';
import { supportRequests } from './support.tables.js';

/**
 * Issue 11, "a UID can be taken with the money it earned": a new binding's money waits OWNERSHIP's
 * hold; a dispute freezes the UID at once; an operator answers, moves the binding with its balance to
 * the claimant, or confirms the holder. Every decision is audited and mailed.
 */
let ctx: Awaited<ReturnType<typeof createWithdrawalTestApp>>;
let operator: Caller;
beforeAll(async () => {
  ctx = await createWithdrawalTestApp();
  operator = await newOperator(ctx);
});
afterAll(() => ctx.close());

type Member = Pick<TestMember, 'token' | 'email' | 'userId'>;
const open = (member: Member, body: object) => memberCall(ctx, member, '/elex/support/create', body);

/** A squatter who bound `uid`... with the owner's money on it, confirmed as owner so only a dispute stops it. */
async function squatterWithMoney(cashback = '120') {
  return fundedMember(ctx, { cashback, confirmedBy: operator.userId });
}

async function dispute(claimant: Member, target: TestMember, text = 'This UID is mine, see the screenshot.') {
  const answer = await openDispute(ctx, claimant, target, text);
  expect(answer).toMatchObject({ state: 0, content: { status: 'open', kind: 'uidBoundByOther' } });
  return answer.content.id as string;
}

describe('the ownership hold of a new binding', () => {
  it('refuses to withdraw before OWNERSHIP.holdDays, says until when, and allows it after', async () => {
    const member = await registerMember(ctx);
    const uid = nextUid('H');
    await addToRoster(ctx, BITGET, uid);
    expect(
      await memberCall(ctx, member, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS }),
    ).toMatchObject({ state: 0 });
    await creditCashback(ctx, BITGET, uid, '75');
    const holder = { ...member, platId: BITGET, uid };
    const until = new Date(ctx.clock.now().getTime() + 14 * DAY_MS);
    const [binding] = (await memberCall(ctx, member, '/elex/user/withdrawable')).content.bindings;
    expect(binding).toMatchObject({ cashback: '75.000000', heldUntil: until.toISOString(), frozen: false });
    expect(
      (await memberCall(ctx, member, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid })).content,
    ).toMatchObject({ balance: '75.000000', heldUntil: until.toISOString(), frozen: false });

    const refused = await applyDeposit(ctx, holder, { amount: '75', authCode: await ownCode(ctx, holder) });
    expect(refused).toMatchObject({ state: State.Refused });
    expect(refused.message).toContain(`${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect((await moneyOf(ctx, holder)).cashback).toBe(75_000_000n);

    ctx.clock.advance(14 * DAY_MS);
    expect(
      (await applyDeposit(ctx, holder, { amount: '75', authCode: await ownCode(ctx, holder) })).state,
    ).toBe(0);
  });

  it('ends early when an operator confirms the owner from an ownership request', async () => {
    const member = await registerMember(ctx);
    const uid = nextUid('O');
    await addToRoster(ctx, BITGET, uid);
    await memberCall(ctx, member, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS });
    await creditCashback(ctx, BITGET, uid, '60');
    const holder = { ...member, platId: BITGET, uid };
    const request = await open(member, {
      kind: 'ownership',
      platId: BITGET,
      uid,
      text: 'Screenshot of my Bitget profile attached.',
      image: { contentType: 'image/png', data: TINY_PNG },
    });
    expect(request.state).toBe(0);
    const verified = await adminCall(ctx, operator, 'support/verifyOwnership', { id: request.content.id });
    expect(verified).toMatchObject({ state: 0, content: { status: 'closed', resolution: 'verified' } });
    expect(
      (await memberCall(ctx, member, '/elex/user/withdrawable')).content.bindings[0].heldUntil,
    ).toBeNull();
    expect(
      (await applyDeposit(ctx, holder, { amount: '60', authCode: await ownCode(ctx, holder) })).state,
    ).toBe(0);
    const [entry] = (
      await listAudit(ctx.db, { target: `support:${request.content.id}`, page: 1, pageSize: 5 })
    ).rows;
    expect(entry).toMatchObject({ action: 'support.verifyOwnership', actor: operator.email });
  });
});

describe('a dispute', () => {
  it('freezes the UID at once: the holder can neither request nor be paid, until the operator moves it to the owner', async () => {
    const squatter = await squatterWithMoney('120');
    // A withdrawal asked before the dispute, still under review.
    const asked = await applyDeposit(ctx, squatter, { amount: '50', authCode: await ownCode(ctx, squatter) });
    expect(asked.state).toBe(0);
    const owner = await registerMember(ctx, 'ko');
    const id = await dispute(owner, squatter);

    // Frozen: no new request, no approval of the one under review.
    const refused = await applyDeposit(ctx, squatter, {
      amount: '50',
      authCode: await ownCode(ctx, squatter),
    });
    expect(refused).toMatchObject({
      state: State.Refused,
      message: 'This UID is under dispute: its cashback cannot be withdrawn until support has decided',
    });
    expect(
      await adminCall(ctx, operator, 'approveWithdrawal', {
        id: asked.content?.id,
        txHash: `0x${'5a'.repeat(32)}`,
      }),
    ).toMatchObject({ state: State.Refused, message: expect.stringContaining('under dispute') });
    const squatterView = (await memberCall(ctx, squatter, '/elex/user/withdrawable')).content.bindings[0];
    expect(squatterView).toMatchObject({ frozen: true });
    // The binding's own page says so too.
    const squatterDetail = await memberCall(ctx, squatter, '/elex/user/seeRebateByExchangeId', {
      platId: squatter.platId,
      uid: squatter.uid,
    });
    expect(squatterDetail.content).toMatchObject({ frozen: true, balance: '70.000000' });

    // The move waits for the withdrawal under review to be decided.
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id })).toMatchObject({
      state: State.Refused,
      message: 'A withdrawal of this UID is under review: decide it first',
    });
    const detail = await adminCall(ctx, operator, 'support/detail', { id });
    expect(detail.content.uidState).toMatchObject({
      holder: { userId: squatter.userId, email: squatter.email },
      balance: '70.000000',
      frozen: true,
      withdrawalsUnderReview: 1,
    });
    expect(detail.content.messages[0].image).toMatch(/^data:image\/png;base64,/);
    expect(
      (
        await adminCall(ctx, operator, 'rejectWithdrawal', {
          id: asked.content?.id,
          reason: 'UID under dispute',
        })
      ).state,
    ).toBe(0);

    const moved = await adminCall(ctx, operator, 'support/moveBinding', { id });
    expect(moved).toMatchObject({ state: 0, content: { status: 'closed', resolution: 'moved' } });
    // The owner holds the UID with the whole balance, confirmed, and can withdraw it now.
    const ownerView = await memberCall(ctx, owner, '/elex/user/withdrawable');
    expect(ownerView.content.bindings).toEqual([
      expect.objectContaining({
        uid: squatter.uid,
        address: OTHER_ADDRESS,
        cashback: '120.000000',
        heldUntil: null,
        frozen: false,
      }),
    ]);
    const ownerMember = { ...owner, platId: squatter.platId, uid: squatter.uid };
    expect(
      (await applyDeposit(ctx, ownerMember, { amount: '120', authCode: await ownCode(ctx, ownerMember) }))
        .state,
    ).toBe(0);
    // The squatter holds nothing any more and could take nothing of it.
    expect((await memberCall(ctx, squatter, '/elex/user/myInfo')).content.exchangeBinds).toEqual([]);
    const [entry] = (await listAudit(ctx.db, { target: `support:${id}`, page: 1, pageSize: 5 })).rows;
    expect(entry).toMatchObject({
      action: 'support.moveBinding',
      actor: operator.email,
      before: { holderId: squatter.userId, balance: '120.000000' },
      after: { holderId: owner.userId },
    });
    // The claimant was told, in Korean.
    const [mail] = (await mailsTo(ctx, owner.email)).filter((item) => item.template === 'supportAnswered');
    expect(mail?.text).toContain('잔액과 함께 회원님의 계정에 연동되었으며');
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('names the invite bonuses the holder’s inviter was paid on the UID, before the move and in its record', async () => {
    const inviter = await registerMember(ctx);
    const squatter = await registerMember(ctx);
    await ctx.db.update(users).set({ inviterId: inviter.userId }).where(eq(users.id, squatter.userId));
    const uid = nextUid('B');
    await addToRoster(ctx, BITGET, uid);
    expect(
      await memberCall(ctx, squatter, '/elex/user/bindExchangeUid', {
        platId: BITGET,
        uid,
        address: ADDRESS,
      }),
    ).toMatchObject({ state: 0 });
    // Two settled records: 10 % of each goes to the squatter's inviter.
    await creditCashback(ctx, BITGET, uid, '60');
    await creditCashback(ctx, BITGET, uid, '20');
    // The squatter's own other UID pays the inviter too: not this dispute's.
    const own = nextUid('B');
    await addToRoster(ctx, BITGET, own);
    await memberCall(ctx, squatter, '/elex/user/bindExchangeUid', {
      platId: BITGET,
      uid: own,
      address: ADDRESS,
    });
    await creditCashback(ctx, BITGET, own, '50');
    const owner = await registerMember(ctx);
    const id = await dispute(owner, { ...squatter, platId: BITGET, uid });

    const detail = await adminCall(ctx, operator, 'support/detail', { id });
    expect(detail.content.uidState).toMatchObject({
      holder: { userId: squatter.userId },
      balance: '80.000000',
      holderInviterBonuses: [{ inviterId: inviter.userId, email: inviter.email, amount: '8.000000' }],
    });

    expect(await adminCall(ctx, operator, 'support/moveBinding', { id })).toMatchObject({ state: 0 });
    const [entry] = (await listAudit(ctx.db, { target: `support:${id}`, page: 1, pageSize: 5 })).rows;
    expect(entry).toMatchObject({
      action: 'support.moveBinding',
      before: {
        holderId: squatter.userId,
        balance: '80.000000',
        inviterBonuses: [{ inviterId: inviter.userId, amount: '8.000000' }],
      },
    });
    // Once the owner holds it, what the owner's records pay is theirs: nobody's inviter was paid for them.
    const after = await adminCall(ctx, operator, 'support/detail', { id });
    expect(after.content.uidState).toMatchObject({
      holder: { userId: owner.userId },
      holderInviterBonuses: [],
    });
    // The inviter still holds the bonuses: the record above is what an operator corrects from.
    expect((await moneyOf(ctx, { ...inviter, platId: BITGET, uid: 'NONE' })).rewards).toBe(13_000_000n);
    // The audit log outlives accounts: it keeps the inviter's id, never their e-mail.
    expect(JSON.stringify(entry?.before)).not.toContain(inviter.email);
  });

  it('is answered in the thread: the member is mailed, reads it, replies; closing ends the freeze', async () => {
    const squatter = await squatterWithMoney('55');
    const owner = await registerMember(ctx, 'zh');
    const id = await dispute(owner, squatter);
    const replied = await adminCall(ctx, operator, 'support/reply', {
      id,
      text: 'Please send the page that shows the UID and your e-mail.',
    });
    expect(replied).toMatchObject({ state: 0, content: { status: 'answered' } });
    const [mail] = (await mailsTo(ctx, owner.email)).filter((item) => item.template === 'supportAnswered');
    expect(mail?.text).toContain('Please send the page that shows the UID and your e-mail.');
    expect(mail?.text).toContain(`/mypage/support/${id}`);

    const thread = await memberCall(ctx, owner, '/elex/support/detail', { id });
    expect(thread.content.messages.map((message: { author: string }) => message.author)).toEqual([
      'member',
      'operator',
    ]);
    const again = await memberCall(ctx, owner, '/elex/support/reply', { id, text: 'Here it is.' });
    expect(again).toMatchObject({ state: 0, content: { status: 'open' } });
    // Nobody else reads it, not even the member the dispute is about.
    expect(await memberCall(ctx, squatter, '/elex/support/detail', { id })).toMatchObject({
      state: State.NotFound,
    });

    expect(
      await adminCall(ctx, operator, 'support/close', { id, text: 'The holder proved it.' }),
    ).toMatchObject({
      state: 0,
      content: { status: 'closed', resolution: 'closed' },
    });
    expect(
      (await applyDeposit(ctx, squatter, { amount: '55', authCode: await ownCode(ctx, squatter) })).state,
    ).toBe(0);
    const closed = await call(
      ctx,
      '/elex/support/reply',
      { id, text: 'More?' },
      { token: owner.token, lang: 'zh' },
    );
    expect(closed.json()).toMatchObject({
      state: State.Refused,
      message: '该请求已关闭。如需更多帮助，请提交新的请求。',
    });
  });
});

describe('the member who holds a disputed UID', () => {
  it('is mailed in their language when a dispute freezes it and when each one is decided, never told who', async () => {
    const holder = await fundedMember(ctx, { cashback: '60', lang: 'zh', confirmedBy: operator.userId });
    // Each step below reads the exchange's name from a cold catalog, as after its 30 s: a read inside
    // the decision's transaction would wait forever for it on PGlite's one connection.
    const decide = (route: string, id: string) => {
      invalidateCatalogCache();
      return adminCall(ctx, operator, route, { id });
    };
    // Newest first.
    const notices = async () =>
      (await mailsTo(ctx, holder.email)).filter((mail) => mail.template === 'uidDisputeNotice');
    const [first, second] = [await registerMember(ctx), await registerMember(ctx)];
    invalidateCatalogCache();
    const firstId = await dispute(first, holder);
    const secondId = await dispute(second, holder);
    const opened = await notices();
    expect(opened).toHaveLength(2);
    expect(opened[0]?.subject).toBe(`您的 Bitget UID ${holder.uid} 正在进行归属审核`);
    expect(opened[0]?.text).toContain(
      `/mypage/support/new?kind=ownership&platId=${BITGET}&uid=${holder.uid}`,
    );
    for (const mail of opened) {
      expect(mail.text).not.toContain(first.email);
      expect(mail.text).not.toContain(second.email);
    }

    // The holder is confirmed on one dispute: the other still freezes the UID, and the mail says so.
    expect((await decide('support/verifyOwnership', firstId)).state).toBe(0);
    expect((await notices())[0]?.text).toContain('关于该 UID 的另一项争议仍在处理中');
    expect((await memberCall(ctx, holder, '/elex/user/withdrawable')).content.bindings[0]).toMatchObject({
      frozen: true,
    });
    expect((await decide('support/close', secondId)).state).toBe(0);
    const [closed] = await notices();
    expect(closed?.text).toContain('未作任何变更');
    expect(closed?.text).toContain('该 UID 的提现已解除冻结。');

    // A third claimant wins: the holder hears the UID left with its balance, and how to dispute it.
    const owner = await registerMember(ctx);
    expect((await decide('support/moveBinding', await dispute(owner, holder))).state).toBe(0);
    const all = await notices();
    expect(all).toHaveLength(6);
    expect(all[0]?.text).toContain('它已不再绑定到您的账户');
    expect(all[0]?.text).toContain(`kind=uidBoundByOther&platId=${BITGET}&uid=${holder.uid}`);
    // The claimants get their own answers only, not the holder's notice.
    expect((await mailsTo(ctx, owner.email)).map((mail) => mail.template)).not.toContain('uidDisputeNotice');
  });
});

describe('opening a request', () => {
  it('refuses what is wrong with a message naming it, and writes nothing', async () => {
    const member = await registerMember(ctx);
    const squatter = await squatterWithMoney('0');
    const count = async () =>
      (await ctx.db.select().from(supportRequests).where(eq(supportRequests.userId, member.userId))).length;
    const cases: Array<[object, number, string]> = [
      [
        { kind: 'missingCashback', text: 'where is it' },
        State.ValidationFailed,
        'platId: Please enter the required information',
      ],
      [
        { kind: 'uidBoundByOther', platId: BITGET, uid: squatter.uid, text: 'mine' },
        State.ValidationFailed,
        'address: Please enter the required information',
      ],
      [
        { kind: 'other', text: 'a\u0000b' },
        State.ValidationFailed,
        'text: Remove the invisible control characters from the text',
      ],
      [
        { kind: 'other', text: 'x'.repeat(SUPPORT.maxTextLength + 1) },
        State.ValidationFailed,
        'text: Please write at most 4,000 characters',
      ],
      [
        {
          kind: 'other',
          text: 'look',
          image: { contentType: 'image/png', data: Buffer.from('GIF89a....').toString('base64') },
        },
        State.Refused,
        'The image must be a PNG, JPEG or WebP file',
      ],
      [
        { kind: 'other', text: 'look', image: { contentType: 'image/gif', data: TINY_PNG } },
        State.ValidationFailed,
        'image.contentType: The image must be a PNG, JPEG or WebP file',
      ],
      [
        { kind: 'uidBoundByOther', platId: BITGET, uid: nextUid('FREE'), address: ADDRESS, text: 'mine' },
        State.Refused,
        'Nobody else holds this UID. If it is yours, bind it on the binding page.',
      ],
      [
        { kind: 'ownership', platId: BITGET, uid: squatter.uid, text: 'mine' },
        State.Refused,
        'This UID is not bound to your account',
      ],
      [
        { kind: 'missingCashback', platId: 999, uid: 'ABCD1234', text: 'where' },
        State.NotFound,
        'This exchange is not one of our partners',
      ],
    ];
    for (const [body, state, message] of cases) {
      expect(await open(member, body), JSON.stringify(body).slice(0, 80)).toMatchObject({ state, message });
    }
    expect(await count()).toBe(0);
  });

  it('refuses an image over 2 MB before decoding it', async () => {
    const member = await registerMember(ctx);
    const huge = TINY_PNG + 'A'.repeat(Math.ceil((SUPPORT.maxImageBytes * 4) / 3));
    const answer = await open(member, {
      kind: 'other',
      text: 'big',
      image: { contentType: 'image/png', data: huge },
    });
    expect(answer).toMatchObject({
      state: State.ValidationFailed,
      message: 'image.data: The image must be at most 2 MB',
    });
  });

  it('allows five open requests per member and one dispute per UID', async () => {
    const member = await registerMember(ctx);
    const squatter = await squatterWithMoney('0');
    await dispute(member, squatter);
    expect(
      await open(member, {
        kind: 'uidBoundByOther',
        platId: squatter.platId,
        uid: squatter.uid,
        address: ADDRESS,
        text: 'again',
      }),
    ).toMatchObject({ state: State.Refused, message: 'You already have an open request about this UID' });
    for (let n = 0; n < SUPPORT.maxOpenPerMember - 1; n += 1) {
      expect((await open(member, { kind: 'other', text: `question ${n}` })).state).toBe(0);
    }
    expect(await open(member, { kind: 'account', text: 'one more' })).toMatchObject({
      state: State.Refused,
      message: 'You already have 5 open requests. Please wait for our answer before opening another.',
    });
    const list = await memberCall(ctx, member, '/elex/support/list', { page: 1, pageSize: 10 });
    expect(list.content.total).toBe(SUPPORT.maxOpenPerMember);
    // Pages of two, newest first: the last page holds the first request, a page past it still counts.
    const pageOf = async (page: number) =>
      (await memberCall(ctx, member, '/elex/support/list', { page, pageSize: 2 })).content;
    expect((await pageOf(1)).records.map((record: { id: string }) => record.id)).toEqual(
      list.content.records.slice(0, 2).map((record: { id: string }) => record.id),
    );
    expect(await pageOf(3)).toMatchObject({
      total: SUPPORT.maxOpenPerMember,
      records: [{ id: list.content.records[4].id }],
    });
    expect(await pageOf(4)).toMatchObject({ total: SUPPORT.maxOpenPerMember, records: [] });
  });

  it('keeps the console to operators: a member is refused every support call', async () => {
    const member = await registerMember(ctx);
    for (const path of ['list', 'detail', 'reply', 'close', 'moveBinding', 'verifyOwnership']) {
      expect((await adminCall(ctx, member, `support/${path}`, { id: 1, text: 'x' })).state).toBe(
        State.Forbidden,
      );
    }
  });
});

describe('who may decide a request (found in review)', () => {
  const holderOf = async (member: TestMember) => {
    const [row] = await ctx.db
      .select({ userId: exchangeBindings.userId })
      .from(exchangeBindings)
      .where(
        and(
          eq(exchangeBindings.platId, member.platId),
          eq(exchangeBindings.uid, member.uid),
          isNull(exchangeBindings.unboundAt),
        ),
      );
    return row?.userId;
  };
  const leave = async (member: Member) =>
    call(
      ctx,
      '/elex/user/deleteAccount',
      {
        passwd: PASSWORD,
        forfeitTotal: forfeitOnDeletion((await memberCall(ctx, member, '/elex/user/withdrawable')).content),
      },
      { token: member.token },
    );

  it('refuses an operator a decision about their own account: another operator must take it', async () => {
    const squatter = await squatterWithMoney('200');
    const own = await dispute(operator, squatter);
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id: own })).toMatchObject({
      state: State.Refused,
      message: 'This request concerns your own account: another operator must decide it',
    });
    expect(await holderOf(squatter)).toBe(squatter.userId);
    expect(await moneyOf(ctx, squatter)).toMatchObject({ cashback: 200_000_000n });

    // Nor may an operator end their own binding's hold, or lift a dispute against their own UID.
    const uid = nextUid('O');
    await addToRoster(ctx, BITGET, uid);
    expect(
      await memberCall(ctx, operator, '/elex/user/bindExchangeUid', {
        platId: BITGET,
        uid,
        address: ADDRESS,
      }),
    ).toMatchObject({ state: 0 });
    const mine = await open(operator, {
      kind: 'ownership',
      platId: BITGET,
      uid,
      text: 'Mine, see the screenshot.',
    });
    expect(mine).toMatchObject({ state: 0 });
    expect(
      await adminCall(ctx, operator, 'support/verifyOwnership', { id: mine.content.id }, 'ko'),
    ).toMatchObject({
      state: State.Refused,
      message: '본인 계정에 관한 요청입니다. 다른 운영자가 처리해야 합니다',
    });
    const against = await dispute(await registerMember(ctx), {
      ...squatter,
      platId: BITGET,
      uid,
    } as TestMember);
    expect(await adminCall(ctx, operator, 'support/close', { id: against })).toMatchObject({
      state: State.Refused,
    });

    // A second operator decides them.
    const second = await newOperator(ctx);
    expect(await adminCall(ctx, second, 'support/moveBinding', { id: own })).toMatchObject({ state: 0 });
    expect(await holderOf(squatter)).toBe(operator.userId);
    expect(await adminCall(ctx, second, 'support/close', { id: against })).toMatchObject({ state: 0 });
  });

  it('closes the requests of a member who deletes the account: the holder is unfrozen and told, nothing moves', async () => {
    const squatter = await squatterWithMoney();
    const claimant = await registerMember(ctx);
    const id = await dispute(claimant, squatter);
    const noticesBefore = (await mailsTo(ctx, squatter.email)).length;
    expect((await leave(claimant)).json()).toMatchObject({ state: 0 });

    const [row] = await ctx.db
      .select()
      .from(supportRequests)
      .where(eq(supportRequests.id, Number(id)));
    expect(row).toMatchObject({ status: 'closed', resolution: 'closed', closedBy: null });
    expect((await memberCall(ctx, squatter, '/elex/user/withdrawable')).content.bindings[0]).toMatchObject({
      uid: squatter.uid,
      frozen: false,
    });
    // One more mail to the holder: the dispute's freeze ended.
    const mails = await mailsTo(ctx, squatter.email);
    expect(mails).toHaveLength(noticesBefore + 1);
    expect(mails[0]?.template).toBe('uidDisputeNotice');
    expect(
      (await listAudit(ctx.db, { target: `support:${id}`, page: 1, pageSize: 5 })).rows[0],
    ).toMatchObject({ action: 'support.close', actor: 'accountDeletion' });
    // Nothing is left to decide: a move is refused, and the UID stays with its balance.
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id }, 'zh')).toMatchObject({
      state: State.Refused,
      message: '该请求已关闭。如需更多帮助，请提交新的请求。',
    });
    expect(await holderOf(squatter)).toBe(squatter.userId);
    expect(await moneyOf(ctx, squatter)).toMatchObject({ cashback: 120_000_000n });
  });

  it('refuses the holder of a disputed UID to delete the account: the frozen balance is not forfeited, the move still happens', async () => {
    const squatter = await squatterWithMoney('150');
    const claimant = await registerMember(ctx);
    const id = await dispute(claimant, squatter);
    const refused = (await leave(squatter)).json();
    expect(refused).toMatchObject({
      state: State.Refused,
      message: 'A UID of yours is under dispute: support must decide it before you can delete your account',
    });
    // Nothing forfeited, nothing ended: the owner's money waits for the decision.
    expect(await holderOf(squatter)).toBe(squatter.userId);
    expect(await moneyOf(ctx, squatter)).toMatchObject({ cashback: 150_000_000n });
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id })).toMatchObject({ state: 0 });
    expect(await holderOf(squatter)).toBe(claimant.userId);
    expect(await moneyOf(ctx, squatter)).toMatchObject({ cashback: 150_000_000n });
    // Decided: the former holder may leave (nothing of theirs is held any more).
    expect((await leave(squatter)).json()).toMatchObject({ state: 0 });
    expect(await moneyOf(ctx, squatter)).toMatchObject({ cashback: 150_000_000n });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('neither moves nor confirms against a claimant who holds the UID by now: closing is the decision', async () => {
    const first = await squatterWithMoney('60');
    const claimant = await registerMember(ctx);
    const id = await dispute(claimant, first);
    // The holder leaves the UID (an operator's unbind; deleting the account is refused while disputed).
    expect(
      await adminCall(ctx, operator, 'unbindUid', {
        userId: first.userId,
        platId: first.platId,
        uid: first.uid,
        reason: 'Disputed',
      }),
    ).toMatchObject({ state: 0 });
    expect(
      await memberCall(ctx, claimant, '/elex/user/bindExchangeUid', {
        platId: first.platId,
        uid: first.uid,
        address: ADDRESS,
      }),
    ).toMatchObject({ state: 0 });
    const before = (await mailsTo(ctx, claimant.email)).length;
    for (const path of ['moveBinding', 'verifyOwnership']) {
      expect(await adminCall(ctx, operator, `support/${path}`, { id })).toMatchObject({
        state: State.Refused,
        message: 'The member who opened this request holds this UID now: close it instead',
      });
    }
    expect(await holderOf({ ...first, platId: first.platId, uid: first.uid })).toBe(claimant.userId);
    const [binding] = await ctx.db
      .select()
      .from(exchangeBindings)
      .where(and(eq(exchangeBindings.userId, claimant.userId), isNull(exchangeBindings.unboundAt)));
    expect(binding?.ownershipVerifiedAt).toBeNull();
    expect((await mailsTo(ctx, claimant.email)).length).toBe(before);
  });
});

describe('a dispute whose binding ended since it was opened (found in review)', () => {
  const holderOf = async (member: Pick<TestMember, 'platId' | 'uid'>) => {
    const [row] = await ctx.db
      .select({ userId: exchangeBindings.userId })
      .from(exchangeBindings)
      .where(
        and(
          eq(exchangeBindings.platId, member.platId),
          eq(exchangeBindings.uid, member.uid),
          isNull(exchangeBindings.unboundAt),
        ),
      );
    return row?.userId;
  };
  const unbind = (member: TestMember) =>
    adminCall(ctx, operator, 'unbindUid', {
      userId: member.userId,
      platId: member.platId,
      uid: member.uid,
      reason: 'Disputed',
    });
  const bind = (member: Member, uid: TestMember) =>
    memberCall(ctx, member, '/elex/user/bindExchangeUid', {
      platId: uid.platId,
      uid: uid.uid,
      address: ADDRESS,
    });

  it('is still about its holder when the same member binds the UID again: confirmed or moved', async () => {
    const holder = await squatterWithMoney('70');
    const confirming = await dispute(await registerMember(ctx), holder);
    expect(await unbind(holder)).toMatchObject({ state: 0 });
    expect(await bind(holder, holder)).toMatchObject({ state: 0 });
    // The evidence was about this member, who holds the UID again: the operator can confirm them.
    expect(await adminCall(ctx, operator, 'support/verifyOwnership', { id: confirming })).toMatchObject({
      state: 0,
    });
    expect(await holderOf(holder)).toBe(holder.userId);

    const other = await squatterWithMoney('40');
    const claimant = await registerMember(ctx);
    const moving = await dispute(claimant, other);
    expect(await unbind(other)).toMatchObject({ state: 0 });
    expect(await bind(other, other)).toMatchObject({ state: 0 });
    expect(await adminCall(ctx, operator, 'support/moveBinding', { id: moving })).toMatchObject({ state: 0 });
    expect(await holderOf(other)).toBe(claimant.userId);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('decides nothing about another member who bound the UID since: neither moved nor confirmed', async () => {
    const holder = await squatterWithMoney('90');
    const claimant = await registerMember(ctx);
    const id = await dispute(claimant, holder);
    expect(await unbind(holder)).toMatchObject({ state: 0 });
    const newcomer = await registerMember(ctx);
    expect(await bind(newcomer, holder)).toMatchObject({ state: 0 });
    for (const path of ['moveBinding', 'verifyOwnership']) {
      expect(await adminCall(ctx, operator, `support/${path}`, { id })).toMatchObject({
        state: State.Refused,
        message: expect.stringContaining('changed hands'),
      });
    }
    // The newcomer keeps the UID and its balance, unconfirmed; the dispute is still open to close.
    expect(await holderOf(holder)).toBe(newcomer.userId);
    expect(await moneyOf(ctx, holder)).toMatchObject({ cashback: 90_000_000n });
    expect(await adminCall(ctx, operator, 'support/close', { id })).toMatchObject({ state: 0 });
  });
});
