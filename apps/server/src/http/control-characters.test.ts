import { State } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOperator } from '../modules/admin/test-support.js';
import { call, nextEmail, signUp } from '../modules/auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../modules/cashback/test-support.js';

/**
 * Issue 13: a NUL byte in any text field answered HTTP 500 on 14 routes (PostgreSQL refuses 0x00 in
 * text). Every /elex call, as a visitor, a member and an operator, now answers a control character in
 * any field with 1001 naming the field, and nothing else.
 */
let ctx: CashbackTestContext;
let member: string;
let operator: string;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  member = await signUp(ctx, nextEmail('nul'));
  operator = (await newOperator(ctx)).token;
});
afterAll(() => ctx.close());

const FIELDS = [
  'email',
  'passwd',
  'authcode',
  'code',
  'encr',
  'uid',
  'text',
  'reason',
  'q',
  'title',
  'content',
];

describe('control characters in a payload', () => {
  it('are refused by every call with a message naming the field, never a 500', async () => {
    const routes = ctx.app.routeTable.filter(
      (route) => route.method === 'POST' && route.url.startsWith('/elex/'),
    );
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      for (const [character, token] of [
        ['\u0000', undefined],
        ['\u0000', member],
        ['\u0007', operator],
      ] as const) {
        for (const field of FIELDS) {
          const res = await call(
            ctx,
            route.url,
            { [field]: `a${character}b`, platId: 4 },
            token ? { token } : {},
          );
          expect(res.statusCode, `${route.url} ${field}`).not.toBe(500);
          const body = res.json();
          expect(body, route.url).toHaveProperty('state');
          // A call a caller may not make says so first; every other refuses the character itself.
          if (body.state === State.ValidationFailed) {
            expect(body.message, `${route.url} ${field}`).toBe(
              `${field}: Remove the invisible control characters from the text`,
            );
          }
        }
      }
    }
  }, 120_000);

  it('are refused inside nested values and keys too', async () => {
    const res = await call(ctx, '/elex/user/verifyEmail', { email: 'a@b.co', extra: [{ 'k\u0000': 1 }] });
    expect(res.json()).toMatchObject({
      state: State.ValidationFailed,
      message: 'extra.0.key: Remove the invisible control characters from the text',
    });
  });
});
