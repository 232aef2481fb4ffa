import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOperator, snapshotTables } from '../modules/admin/test-support.js';
import { nextEmail, nextIp, signUp } from '../modules/auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../modules/cashback/test-support.js';
import { fundedMember } from '../modules/withdrawals/test-support.js';

/**
 * Issue 13: every /elex call, as a visitor, a member and an operator, gets malformed bodies - wrong
 * types, missing and unknown fields, huge strings, control characters, prototype keys, non-JSON,
 * wrong content types - and must answer the envelope, never HTTP 500, and move no money. The field
 * names come from the contract's wire names, so the fuzzer reaches past "unknown field" into the
 * schemas and the services behind them. Seeded: a failure names its seed and replays.
 */
let ctx: CashbackTestContext;
let callers: Array<{ name: string; token?: string }>;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  const member = await fundedMember(ctx, { cashback: '120' });
  const operator = await newOperator(ctx);
  callers = [
    { name: 'visitor' },
    { name: 'member', token: member.token },
    { name: 'operator', token: operator.token },
  ];
  await signUp(ctx, nextEmail('fuzz'));
}, 120_000);
afterAll(() => ctx.close());

/** The tables that hold money or its records: no malformed call may change them. */
const MONEY_TABLES = [
  'ledger_accounts',
  'ledger_journals',
  'ledger_lines',
  'withdrawals',
  'rebates',
  'exchange_bindings',
];

/** Wire names the contract uses across calls (spec section 7 and the contract files). */
const FIELDS = [
  'email',
  'passwd',
  'authcode',
  'authCode',
  'code',
  'encr',
  'module',
  'platId',
  'uid',
  'address',
  'amount',
  'requestId',
  'id',
  'userId',
  'page',
  'pageSize',
  'status',
  'from',
  'to',
  'text',
  'kind',
  'reason',
  'txHash',
  'query',
  'days',
  'xmeUid',
  'taskId',
  'accountId',
  'title',
  'csv',
  'fileName',
  'content',
  'image',
  'event',
  'forfeitTotal',
  'maxUses',
  'validThrough',
  'disabled',
  '__proto__',
  'constructor',
  'prototype',
];

const nasty = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u001b[31m',
    '\u007f',
    '\ud800',
    '𝕏',
    '  ',
    '',
    '0',
    '-1',
    '1e309',
    'NaN',
  ),
  fc.constantFrom('null', 'true', '[]', '{}', '0x1', '1e0', '../../etc/passwd', "' or 1=1 --", '<script>'),
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 10_000, maxLength: 10_000 }).map((text) => text.padEnd(10_000, 'x')),
);
/** Values each field accepts, so a malformed one sits among valid ones and reaches the services. */
const PLAUSIBLE: Record<string, unknown> = {
  email: 'trader@example.com',
  passwd: 'Secret#2026',
  authcode: '123456',
  authCode: 123456,
  code: 'ABCD1234',
  encr: 'PROMO1',
  module: 1,
  platId: 4,
  uid: '40512345',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  amount: '60',
  page: 1,
  pageSize: 20,
  text: 'Hello, this is about my UID',
  kind: 'other',
  reason: 'a reason',
  query: 'trader',
  xmeUid: 'XME12345',
  title: 'A title',
  event: 'page_view',
};
const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\u000b');
/** A valid-looking body whose every string carries a control character somewhere. */
const taintedBody = fc
  .tuple(fc.subarray(Object.keys(PLAUSIBLE), { minLength: 1 }), fc.nat(), CONTROL)
  .map(([fields, where, character]) => {
    const body: Record<string, unknown> = {};
    for (const field of fields) {
      const plain = PLAUSIBLE[field];
      if (typeof plain !== 'string') {
        body[field] = plain;
        continue;
      }
      const at = where % (plain.length + 1);
      body[field] = `${plain.slice(0, at)}${character}${plain.slice(at)}`;
    }
    return body;
  });
const value: fc.Arbitrary<unknown> = fc.oneof(
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nasty, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELDS), nasty, { maxKeys: 3 }),
);
const jsonBody = fc.oneof(
  { weight: 2, arbitrary: taintedBody },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }) },
  { weight: 1, arbitrary: value },
);
/** What goes on the wire: JSON of any shape, broken JSON, or another content type. */
const request = fc.oneof(
  {
    weight: 6,
    arbitrary: jsonBody.map((body) => ({ type: 'application/json', payload: JSON.stringify(body) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('{"email":', '{"a":1}}', '\u0000', '', '[', '"\\ud800"', '{"__proto__":{"x":1}}')
      .map((payload) => ({ type: 'application/json', payload })),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 20 }), { maxKeys: 4 })
      .map((form) => ({
        type: 'application/x-www-form-urlencoded',
        payload: new URLSearchParams(form).toString(),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x')
      .map((type) => ({
        type,
        payload: 'email=a',
      })),
  },
);

/** Bodies per call and caller: a few hundred per call over the three callers. */
const RUNS = 70;

describe('fuzzing every call with malformed bodies', () => {
  it('always answers the envelope, never 500, and moves no money', async () => {
    const routes = ctx.app.routeTable.filter(
      (route) => route.method === 'POST' && route.url.startsWith('/elex/'),
    );
    expect(routes.length).toBeGreaterThan(60);
    const before = await snapshotTables(ctx, MONEY_TABLES);
    let sent = 0;
    for (const route of routes) {
      for (const caller of callers) {
        await fc.assert(
          fc.asyncProperty(request, async ({ type, payload }) => {
            sent += 1;
            const res = await ctx.app.inject({
              method: 'POST',
              url: route.url,
              headers: { 'content-type': type, ...(caller.token ? { token: caller.token } : {}) },
              payload,
              remoteAddress: nextIp(),
            });
            expect(res.statusCode, `${route.url} as ${caller.name}: ${payload.slice(0, 200)}`).not.toBe(500);
            const body = res.json() as Record<string, unknown>;
            expect(Object.keys(body).sort(), route.url).toEqual(['content', 'message', 'state']);
            expect(typeof body.state).toBe('number');
          }),
          { numRuns: RUNS, seed: 20261124 + sent },
        );
      }
    }
    expect(sent).toBeGreaterThan(routes.length * callers.length * RUNS - 1);
    expect(await snapshotTables(ctx, MONEY_TABLES)).toBe(before);
    console.info(`fuzz: ${routes.length} calls, ${sent} bodies, 0 answered 500`);
  }, 600_000);
});
