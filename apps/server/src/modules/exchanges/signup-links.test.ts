import {
  type CatalogExchange,
  type ExchangeDictionary,
  PLACEHOLDER_REFERRAL_CODE,
  State,
} from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newOperator } from '../admin/test-support.js';
import { call } from '../auth/test-support.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { reportPartnersNotReady, updateExchange } from './exchanges.service.js';

/**
 * Issue 11 point 7: one referral code per partner, every sign-up link built from it; production
 * never offers a link that carries the placeholder code; the console says which partners are not ready.
 */

const BITGET_TEMPLATE = 'https://www.bitget.com/referral/register?clacCode={code}';

async function dictionary(ctx: CashbackTestContext): Promise<ExchangeDictionary['exchangeList']> {
  const res = await ctx.app.inject({ method: 'GET', url: '/elex/user/config/res.json' });
  return res.json().content.exchangeList;
}

async function detail(ctx: CashbackTestContext, platId: number) {
  return (await call(ctx, '/elex/exchange/detail', { platId })).json().content as {
    signupUrl: string | null;
    referralCode: string | null;
  };
}

async function editorFields(ctx: CashbackTestContext, operator: Caller, platId: number) {
  const { exchanges } = (await adminCall<{ exchanges: CatalogExchange[] }>(ctx, operator, 'catalog')).content;
  const found = exchanges.find((entry) => entry.platId === platId);
  if (!found) throw new Error(`no exchange ${platId}`);
  const { vipTiers: _v, activities: _a, ...fields } = found;
  return fields;
}

async function auditOf(ctx: CashbackTestContext, operator: Caller, platId: number) {
  const answer = await adminCall(ctx, operator, 'auditLog', { target: `exchange:${platId}` });
  return answer.content.rows as Array<{ action: string; actor: string; before: unknown; after: unknown }>;
}

class LogCapture {
  lines: Array<{ level: 'warn' | 'info'; details: object; message: string }> = [];
  warn(details: object, message: string) {
    this.lines.push({ level: 'warn', details, message });
  }
  info(details: object, message: string) {
    this.lines.push({ level: 'info', details, message });
  }
}

describe('outside production (development, tests)', () => {
  let ctx: CashbackTestContext;
  let operator: Caller;
  beforeAll(async () => {
    ctx = await createCashbackTestApp();
    operator = await newOperator(ctx);
  }, 60_000);
  afterAll(() => ctx.close());

  it('shows the seeded placeholder links, so the demo can be clicked through', async () => {
    const okx = (await dictionary(ctx)).find((entry) => entry.id === 2);
    expect(okx).toMatchObject({
      signupUrl: `https://www.okx.com/join/${PLACEHOLDER_REFERRAL_CODE}`,
      referralCode: PLACEHOLDER_REFERRAL_CODE,
    });
  });

  it('builds every sign-up link from the one referral code: a new code changes the link with it', async () => {
    // The case: the operator sets Bitget's code; the dialog's code and its link must agree.
    const fields = await editorFields(ctx, operator, BITGET);
    expect(fields).toMatchObject({
      signupUrlTemplate: BITGET_TEMPLATE,
      referralCode: PLACEHOLDER_REFERRAL_CODE,
    });
    const saved = await adminCall(ctx, operator, 'updateExchange', {
      ...fields,
      referralCode: 'BGELEX01',
    });
    expect(saved).toMatchObject({
      state: 0,
      content: { referralCode: 'BGELEX01', signupUrlTemplate: BITGET_TEMPLATE },
    });
    const link = 'https://www.bitget.com/referral/register?clacCode=BGELEX01';
    expect((await dictionary(ctx)).find((entry) => entry.id === BITGET)).toMatchObject({
      signupUrl: link,
      referralCode: 'BGELEX01',
    });
    expect(await detail(ctx, BITGET)).toMatchObject({ signupUrl: link, referralCode: 'BGELEX01' });

    // A new template keeps the code: only the page around it changes.
    await adminCall(ctx, operator, 'updateExchange', {
      ...(await editorFields(ctx, operator, BITGET)),
      signupUrlTemplate: 'https://partner.bitget.com/join/{code}?lang=en',
    });
    expect(await detail(ctx, BITGET)).toMatchObject({
      signupUrl: 'https://partner.bitget.com/join/BGELEX01?lang=en',
      referralCode: 'BGELEX01',
    });

    const [latest, first] = await auditOf(ctx, operator, BITGET);
    expect(first).toMatchObject({
      action: 'exchange.update',
      actor: operator.email,
      before: { referralCode: PLACEHOLDER_REFERRAL_CODE, signupUrlTemplate: BITGET_TEMPLATE },
      after: { referralCode: 'BGELEX01', signupUrlTemplate: BITGET_TEMPLATE },
    });
    expect(latest).toMatchObject({
      before: { signupUrlTemplate: BITGET_TEMPLATE },
      after: { signupUrlTemplate: 'https://partner.bitget.com/join/{code}?lang=en' },
    });
  });

  it('refuses a template without exactly one {code} after the site name, or a malformed code, changing nothing', async () => {
    const fields = await editorFields(ctx, operator, 2);
    const auditBefore = (await auditOf(ctx, operator, 2)).length;
    const refusals: Array<[Record<string, string>, string]> = [
      [
        { signupUrlTemplate: 'https://www.okx.com/join/ELEXCB' },
        'signupUrlTemplate: Put {code} exactly once in the link, where the referral code goes (after the site name)',
      ],
      [
        { signupUrlTemplate: 'https://www.okx.com/join/{code}?again={code}' },
        'signupUrlTemplate: Put {code} exactly once in the link, where the referral code goes (after the site name)',
      ],
      [
        { signupUrlTemplate: 'https://{code}.okx.com/join' },
        'signupUrlTemplate: Put {code} exactly once in the link, where the referral code goes (after the site name)',
      ],
      [
        { signupUrlTemplate: 'http://www.okx.com/join/{code}' },
        'signupUrlTemplate: Enter a web address starting with https://',
      ],
      [
        { signupUrlTemplate: 'javascript:alert({code})' },
        'signupUrlTemplate: Enter a web address starting with https://',
      ],
      [{ signupUrlTemplate: '' }, 'signupUrlTemplate: this field is required'],
      [{ referralCode: 'OKX 2026' }, 'referralCode: Use 2 to 64 letters, digits, - or _'],
      [{ referralCode: 'a&b=c' }, 'referralCode: Use 2 to 64 letters, digits, - or _'],
      [{ referralCode: '' }, 'referralCode: this field is required'],
    ];
    for (const [change, message] of refusals) {
      expect(await adminCall(ctx, operator, 'updateExchange', { ...fields, ...change })).toMatchObject({
        state: State.ValidationFailed,
        message,
      });
    }
    // Korean operators read the same refusal in Korean.
    expect(
      await adminCall(ctx, operator, 'updateExchange', { ...fields, referralCode: 'x y' }, 'ko'),
    ).toMatchObject({ message: 'referralCode: 영문자, 숫자, - 또는 _ 2~64자로 입력해 주세요' });
    expect(await editorFields(ctx, operator, 2)).toEqual(fields);
    expect(await auditOf(ctx, operator, 2)).toHaveLength(auditBefore);
  });
});

describe('in production', () => {
  let ctx: CashbackTestContext;
  let operator: Caller;
  beforeAll(async () => {
    ctx = await createCashbackTestApp({ env: 'production' });
    operator = await newOperator(ctx);
  }, 60_000);
  afterAll(() => ctx.close());

  it('answers no sign-up link and no code for a partner still on the placeholder code', async () => {
    const entries = await dictionary(ctx);
    expect(entries).toHaveLength(10);
    for (const entry of entries) expect(entry).toMatchObject({ signupUrl: null, referralCode: null });
    expect(await detail(ctx, BITGET)).toMatchObject({ signupUrl: null, referralCode: null });
    // The rest of the catalog is served as usual.
    expect(entries.find((entry) => entry.id === BITGET)).toMatchObject({ name: 'Bitget', cashRate: '50.00' });
  });

  it('offers the link once an operator enters the real code, and hides it again when its template loses {code}', async () => {
    await adminCall(ctx, operator, 'updateExchange', {
      ...(await editorFields(ctx, operator, BITGET)),
      referralCode: 'BGELEX01',
    });
    const link = 'https://www.bitget.com/referral/register?clacCode=BGELEX01';
    expect((await dictionary(ctx)).find((entry) => entry.id === BITGET)).toMatchObject({
      signupUrl: link,
      referralCode: 'BGELEX01',
    });
    expect(await detail(ctx, BITGET)).toMatchObject({ signupUrl: link, referralCode: 'BGELEX01' });
    expect((await dictionary(ctx)).find((entry) => entry.id === 2)).toMatchObject({ signupUrl: null });

    // A link migration 0015 could not convert (it did not hold the code): kept, but not ready.
    await updateExchange(ctx.deps, BITGET, { signupUrlTemplate: 'https://www.bitget.com/referral/register' });
    expect(await detail(ctx, BITGET)).toMatchObject({ signupUrl: null, referralCode: null });
    const dashboard = await adminCall(ctx, operator, 'dashboard', { days: 7 });
    expect(dashboard.content.partnersNotReady).toContainEqual({
      platId: BITGET,
      name: 'Bitget',
      problems: ['missingTemplate'],
    });
    await updateExchange(ctx.deps, BITGET, { signupUrlTemplate: BITGET_TEMPLATE });
  });

  it('lists the partners not ready on the dashboard, in catalog order, and warns at start', async () => {
    const dashboard = await adminCall(ctx, operator, 'dashboard', { days: 7 });
    const notReady = dashboard.content.partnersNotReady as Array<{
      platId: number;
      name: string;
      problems: string[];
    }>;
    expect(notReady.map((partner) => partner.name)).toEqual([
      'Binance',
      'OKX',
      'Bybit',
      'Gate',
      'BingX',
      'MEXC',
      'HTX',
      'KuCoin',
      'BitMart',
    ]);
    expect(notReady.every((partner) => partner.problems.join() === 'placeholderCode')).toBe(true);

    const log = new LogCapture();
    await reportPartnersNotReady(ctx.db, 'production', log);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({
      level: 'warn',
      details: {
        partners: expect.arrayContaining(['Binance (placeholderCode)', 'BitMart (placeholderCode)']),
      },
    });
    expect(log.lines[0]?.message).toMatch(/sign-up links are hidden/);
    expect(JSON.stringify(log.lines[0]?.details)).not.toContain('Bitget');

    const development = new LogCapture();
    await reportPartnersNotReady(ctx.db, 'development', development);
    expect(development.lines.map((line) => line.level)).toEqual(['info']);
  });

  it('says nothing at start once every partner is ready', async () => {
    for (const entry of await dictionary(ctx)) {
      if (entry.id === BITGET) continue;
      await updateExchange(ctx.deps, entry.id, { referralCode: `REAL${entry.id}` });
    }
    const log = new LogCapture();
    expect(await reportPartnersNotReady(ctx.db, 'production', log)).toEqual([]);
    expect(log.lines).toEqual([]);
    expect(
      (await dictionary(ctx)).every((entry) => entry.signupUrl?.includes(entry.referralCode ?? '-')),
    ).toBe(true);
  });
});
