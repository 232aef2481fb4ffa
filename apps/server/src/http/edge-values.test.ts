import { State } from '@elex/contract';
import { ENDPOINTS, type Endpoint } from '@elex/contract/endpoints';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { adminCall, type Caller, newOperator, snapshotTables } from '../modules/admin/test-support.js';
import { call } from '../modules/auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../modules/cashback/test-support.js';
import { fundedMember, memberCall, type TestMember } from '../modules/withdrawals/test-support.js';
import { createTestApp, post } from '../test/test-app.js';

/**
 * Values at the edges of what the database holds, in every field of every call's contract, each in a
 * body that is otherwise plausible so it reaches the service: an exchange id past PostgreSQL's
 * `integer`, ids past `bigint`, days in year 0 or 9999 (the day after is year 10000), a lone half of
 * a surrogate pair (jsonb refuses it). A reviewer found each of these answering HTTP 500 on some call;
 * every call must refuse them as bad input, name the field where the contract knows it, and move no
 * money. fuzz.test.ts throws random shapes; this walks the contract's own field names.
 */
let ctx: CashbackTestContext;
let member: TestMember;
let operator: Caller;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  member = await fundedMember(ctx, { cashback: '120' });
  operator = await newOperator(ctx);
}, 120_000);
afterAll(() => ctx.close());

const MONEY_TABLES = ['ledger_journals', 'ledger_lines', 'withdrawals', 'corrections', 'exchange_bindings'];

/** Values each field accepts, so the edge value in one field is the only thing wrong with a body. */
const PLAUSIBLE: Record<string, unknown> = {
  platId: 4,
  uid: '40512345',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  amount: '60',
  requestId: '0b6f2a52-8a5c-4f4e-9a55-0d6a8f9f3b11',
  authCode: '123456',
  page: 1,
  pageSize: 20,
  from: '2026-01-01',
  to: '2026-01-31',
  text: 'A plausible text',
  reason: 'a reason',
  kind: 'withdrawals',
  // Nobody's: an edge value elsewhere in a body must not suspend or change a real member.
  id: 999_999,
  userId: 999_999,
  event: 'page_view',
  page_: '/',
  code: 'EDGE1',
  validThrough: '2026-12-31',
};

/** Calls that end the caller's session or change their password: the sweep needs the session. */
const SESSION_ENDING = new Set(['userLogout', 'userDeleteAccount', 'userUpdatePass']);

const EDGE_VALUES: unknown[] = [
  2_147_483_648,
  '2147483648',
  1e20,
  '99999999999999999999',
  '9999-12-31',
  '0000-01-01',
  'a\ud800b',
];

/** The field names of a request schema (an object, possibly refined or preprocessed). */
function fieldsOf(schema: z.ZodType | null): string[] {
  let current: unknown = schema;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const candidate = current as { shape?: Record<string, unknown>; def?: Record<string, unknown> };
    if (candidate.shape) return Object.keys(candidate.shape);
    const def = candidate.def ?? {};
    current = def.out ?? def.in ?? def.innerType ?? def.schema;
  }
  return [];
}

async function send(endpoint: Endpoint, body: object) {
  if (endpoint.path.startsWith('/elex/admin/')) return adminCall(ctx, operator, endpoint.path, body);
  return memberCall(ctx, member, endpoint.path, body);
}

describe('edge values in every field of every call', () => {
  it('are refused as bad input, never HTTP 500, and move no money', async () => {
    const before = await snapshotTables(ctx, MONEY_TABLES);
    const faults: string[] = [];
    let sent = 0;
    for (const [name, endpoint] of Object.entries(ENDPOINTS) as Array<[string, Endpoint]>) {
      if (endpoint.method !== 'POST' || endpoint.auth === 'link' || SESSION_ENDING.has(name)) continue;
      const fields = fieldsOf(endpoint.request);
      const plausible = Object.fromEntries(
        fields.filter((field) => field in PLAUSIBLE).map((field) => [field, PLAUSIBLE[field]]),
      );
      for (const field of fields) {
        for (const edge of EDGE_VALUES) {
          const answer = await send(endpoint, { ...plausible, [field]: edge });
          sent += 1;
          if (answer.state === State.ServerError) faults.push(`${name}.${field} = ${JSON.stringify(edge)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(faults).toEqual([]);
    // Every call above reached past the session check: both callers are still signed in.
    expect(await memberCall(ctx, member, '/elex/user/profile')).toMatchObject({ state: 0 });
    expect(await adminCall(ctx, operator, 'whoami')).toMatchObject({ state: 0 });
    expect(await snapshotTables(ctx, MONEY_TABLES)).toBe(before);
  }, 300_000);

  it('names the field the reviewer found answering 500, in the caller’s language', async () => {
    const withdraw = {
      requestId: '2c3e8d0a-9a4f-4a8b-8f55-6f4c2b1d7e90',
      platId: 2_147_483_648,
      uid: member.uid,
      address: PLAUSIBLE.address,
      amount: '60',
      authCode: '123456',
    };
    expect(
      (await call(ctx, '/elex/user/applyDeposit', withdraw, { token: member.token, lang: 'ko' })).json(),
    ).toMatchObject({
      state: State.ValidationFailed,
      message: 'platId: 유효하지 않은 값',
    });
    for (const day of ['0000-01-01', '9999-12-31']) {
      expect(await memberCall(ctx, member, '/elex/user/seeRebateData', { to: day })).toMatchObject({
        state: State.ValidationFailed,
        message: 'to: invalid value',
      });
      expect(
        await adminCall(ctx, operator, 'exports/create', { kind: 'members', from: '2026-01-01', to: day }),
      ).toMatchObject({ state: State.ValidationFailed, message: 'to: Enter a day as YYYY-MM-DD' });
    }
    expect(
      await adminCall(ctx, operator, 'createPromotionCode', { code: 'FARDAY', validThrough: '9999-12-31' }),
    ).toMatchObject({ state: State.ValidationFailed, message: 'validThrough: invalid value' });
    expect(
      await adminCall(ctx, operator, 'suspendMember', { userId: member.userId, reason: 'x\ud800' }, 'zh'),
    ).toMatchObject({ state: State.ValidationFailed, message: 'reason：请删除文本中不可见的控制字符' });
    // A well-formed pair is text like any other.
    expect(
      await memberCall(ctx, member, '/elex/support/create', { kind: 'other', text: 'Emoji 😀 ok' }),
    ).toMatchObject({ state: 0 });
  });
});

describe('a value the database refuses that no schema caught', () => {
  it('answers as bad input naming no internals, not as a fault of the server', async () => {
    const bare = await createTestApp();
    try {
      // A call whose schema let an integer past PostgreSQL's `integer` through to its query.
      bare.app.post('/elex/__tooLarge', async () => {
        await bare.db.execute(sql`select ${String(2 ** 31)}::integer`);
        return {};
      });
      const res = await post(bare.app, '/elex/__tooLarge', {}, { lang: 'en' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        state: State.ValidationFailed,
        message: 'body: invalid value',
        content: null,
      });
    } finally {
      await bare.close();
    }
  });
});
