import { randomUUID } from 'node:crypto';
import { CodeModule, type Locale } from '@elex/contract';
import { expect } from 'vitest';
import { findActiveUserByEmail } from '../auth/auth.repository.js';
import { call, nextEmail, nextIp, PASSWORD, passCoolDown, readCode } from '../auth/test-support.js';
import { bindExchangeUid, confirmOwnership } from '../bindings/bindings.service.js';
import { ingestRebates, ingestReferrals } from '../cashback/ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createMember,
  DAY_MS,
  figures,
  nextUid,
  usdt,
} from '../cashback/test-support.js';
import { accountCode, balancesOf } from '../ledger/ledger.service.js';

/**
 * Test helpers for withdrawals: members with a bound UID whose cashback and event rewards come
 * through the real engine (roster, figures, settlement, invite bonus), module-3 codes from the
 * development mailbox, and the member calls.
 */
export { BITGET, createCashbackTestApp as createWithdrawalTestApp, usdt } from '../cashback/test-support.js';

/** EIP-55's own test vectors: well-formed addresses nobody uses. */
export const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
export const OTHER_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

export interface TestMember {
  token: string;
  userId: number;
  email: string;
  platId: number;
  uid: string;
}

const api = { kind: 'api', label: 'withdrawal test' } as const;

/** Registers through the API in a language (users.locale decides the language of later mails). */
export async function registerMember(
  ctx: CashbackTestContext,
  lang: Locale = 'en',
): Promise<{ token: string; userId: number; email: string }> {
  const email = nextEmail('withdraw');
  const ip = nextIp();
  expect(
    (await call(ctx, '/elex/user/verifyCode', { module: CodeModule.Register, email }, { ip, lang })).json(),
  ).toMatchObject({ state: 0 });
  const authcode = await readCode(ctx, email);
  const body = (
    await call(ctx, '/elex/user/register', { email, passwd: PASSWORD, authcode }, { ip, lang })
  ).json();
  expect(body).toMatchObject({ state: 0 });
  const user = await findActiveUserByEmail(ctx.db, email);
  if (!user) throw new Error('the member vanished');
  return { token: body.content.token as string, userId: user.id, email };
}

let periodsUsed = 0;
const HOUR_MS = 60 * 60 * 1000;

/**
 * Credits a UID's cashback through the engine: a settled hour whose commission caps the cashback, so
 * the UID earns exactly `amount`. Each call uses its own hour, so calls never overlap (counted per
 * process: the server files of a worker share this module, so a file's first credit may be days after
 * 2025-01-01).
 */
export async function creditCashback(ctx: CashbackTestContext, platId: number, uid: string, amount: string) {
  periodsUsed += 1;
  const start = new Date(Date.UTC(2025, 0, 1) + periodsUsed * HOUR_MS);
  if (start.getTime() > ctx.clock.now().getTime() - 3 * DAY_MS)
    throw new Error('creditCashback ran out of hours');
  const fee = fromMicro(usdt(amount) * 10n);
  const result = await ingestRebates(
    ctx.deps,
    platId,
    [figures(uid, start, { fee, commission: amount }, 1)],
    api,
  );
  expect(result.settlement.completed).toBe(1);
}

/** An operator (a member row made for it) confirms the UID's live binding as its owner's. */
export async function confirmOwnershipForTest(
  ctx: CashbackTestContext,
  platId: number,
  uid: string,
  operatorId?: number,
) {
  const by = operatorId ?? (await createMember(ctx)).id;
  const confirmed = await ctx.db.transaction((tx) =>
    confirmOwnership(tx, { platId, uid, operatorId: by, at: ctx.clock.now() }),
  );
  expect(confirmed?.ownershipVerifiedAt).toBeTruthy();
}

/** Puts a UID in the exchange's roster, registered long before any credited day. */
export async function addToRoster(ctx: CashbackTestContext, platId: number, uid: string) {
  await ingestReferrals(ctx.deps, platId, [{ uid, registeredAt: new Date(Date.UTC(2019, 0, 1)) }], api);
}

/** Gives a member event rewards the real way: an invited friend earns 10 x that in cashback. */
async function creditRewards(ctx: CashbackTestContext, userId: number, amount: string) {
  const friend = await createMember(ctx, { inviterId: userId });
  const uid = nextUid('F');
  await addToRoster(ctx, BITGET, uid);
  await bindExchangeUid(ctx.deps, friend.id, { platId: BITGET, uid, address: ADDRESS });
  // Past the friend's ownership hold too: a bonus waits with it (held-invite-bonuses.test.ts).
  await confirmOwnershipForTest(ctx, BITGET, uid);
  const percent = BigInt(ctx.deps.config.inviteBonusPercent);
  const friendCashback = (usdt(amount) * 100n) / percent;
  await creditCashback(ctx, BITGET, uid, fromMicro(friendCashback));
}

function fromMicro(micro: bigint): string {
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')}`;
}

/** A registered member with a bound UID holding `cashback` and event rewards of `rewards` (USDT). */
export async function fundedMember(
  ctx: CashbackTestContext,
  funds: {
    cashback: string;
    rewards?: string;
    lang?: Locale;
    platId?: number;
    /** The operator who confirms the member owns the UID (one is made when not given). */
    confirmedBy?: number;
  },
): Promise<TestMember> {
  const member = await registerMember(ctx, funds.lang ?? 'en');
  const platId = funds.platId ?? BITGET;
  const uid = nextUid('W');
  await addToRoster(ctx, platId, uid);
  expect(
    (
      await call(
        ctx,
        '/elex/user/bindExchangeUid',
        { platId, uid, address: ADDRESS },
        { token: member.token },
      )
    ).json(),
  ).toMatchObject({ state: 0 });
  // Past the new binding's ownership hold (docs/support.md): these tests are about withdrawing.
  await confirmOwnershipForTest(ctx, platId, uid, funds.confirmedBy);
  if (usdt(funds.cashback) > 0n) await creditCashback(ctx, platId, uid, funds.cashback);
  if (funds.rewards && usdt(funds.rewards) > 0n) await creditRewards(ctx, member.userId, funds.rewards);
  const balances = await balancesOf(ctx.db, [
    accountCode.cashback(platId, uid),
    accountCode.rewards(member.userId),
  ]);
  expect(balances.get(accountCode.cashback(platId, uid))).toBe(usdt(funds.cashback));
  expect(balances.get(accountCode.rewards(member.userId))).toBe(usdt(funds.rewards ?? '0'));
  return { ...member, platId, uid };
}

/** The member's UID cashback, rewards and, when asked, a withdrawal's hold, in micro-USDT. */
export async function moneyOf(ctx: CashbackTestContext, member: TestMember, withdrawalId?: string | number) {
  const codes = {
    cashback: accountCode.cashback(member.platId, member.uid),
    rewards: accountCode.rewards(member.userId),
    hold: withdrawalId === undefined ? undefined : accountCode.hold(Number(withdrawalId)),
  };
  const balances = await balancesOf(
    ctx.db,
    Object.values(codes).filter((code): code is string => !!code),
  );
  return {
    cashback: balances.get(codes.cashback) ?? 0n,
    rewards: balances.get(codes.rewards) ?? 0n,
    hold: codes.hold ? (balances.get(codes.hold) ?? 0n) : 0n,
  };
}

/** Requests a module-3 code for the member (after the 60 s cool-down) and reads it from the mailbox. */
export async function ownCode(ctx: CashbackTestContext, member: Pick<TestMember, 'token' | 'email'>) {
  passCoolDown(ctx);
  const sent = (
    await call(ctx, '/elex/user/verifyCode', { module: CodeModule.OwnAddress }, { token: member.token })
  ).json();
  expect(sent).toMatchObject({ state: 0 });
  return readCode(ctx, member.email);
}

export interface ApplyBody {
  requestId?: string;
  platId?: number;
  uid?: string;
  address?: string;
  amount: string;
  authCode: string;
}

/** /elex/user/applyDeposit as the page sends it (a fresh request id unless given). */
export async function applyDeposit(
  ctx: CashbackTestContext,
  member: TestMember,
  body: ApplyBody,
  options: { lang?: Locale } = {},
) {
  const res = await call(
    ctx,
    '/elex/user/applyDeposit',
    {
      requestId: body.requestId ?? randomUUID(),
      platId: body.platId ?? member.platId,
      uid: body.uid ?? member.uid,
      address: body.address ?? ADDRESS,
      amount: body.amount,
      authCode: body.authCode,
    },
    { token: member.token, ...(options.lang ? { lang: options.lang } : {}) },
  );
  return res.json() as {
    state: number;
    message: string;
    content: {
      id: string;
      status: string;
      amount: string;
      address: string;
      txHash: string | null;
      failureReason: string | null;
    } | null;
  };
}

/** Any member call, answering the parsed envelope. */
export async function memberCall(
  ctx: CashbackTestContext,
  member: Pick<TestMember, 'token'>,
  url: string,
  body: object = {},
) {
  return (await call(ctx, url, body, { token: member.token })).json();
}

/** The smallest valid PNG a support request accepts: its signature, then nothing else we read. */
export const TINY_PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]).toString(
  'base64',
);

/** `claimant` says `target`'s UID is theirs (support's 'uidBoundByOther'): the UID is frozen. */
export function openDispute(
  ctx: CashbackTestContext,
  claimant: Pick<TestMember, 'token'>,
  target: Pick<TestMember, 'platId' | 'uid'>,
  text = 'This UID is mine, see the screenshot.',
) {
  return memberCall(ctx, claimant, '/elex/support/create', {
    kind: 'uidBoundByOther',
    platId: target.platId,
    uid: target.uid,
    address: OTHER_ADDRESS,
    text,
    image: { contentType: 'image/png', data: TINY_PNG },
  });
}
