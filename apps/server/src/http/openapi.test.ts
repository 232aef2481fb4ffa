import { PAGING, State } from '@elex/contract';
import { ENDPOINTS, type Endpoint } from '@elex/contract/endpoints';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, newMember, newOperator } from '../modules/admin/test-support.js';
import { call } from '../modules/auth/test-support.js';
import { type CashbackTestContext, createCashbackTestApp } from '../modules/cashback/test-support.js';

/**
 * The endpoint table (packages/contract/src/endpoints.ts) against the running server: it lists every
 * /elex route and nothing else, its `auth` column is what the server enforces, every answer it
 * describes is what the server sends, and `GET /openapi.json` is a valid OpenAPI 3.1 document of it.
 */
let ctx: CashbackTestContext;
let member: Caller;
let operator: Caller;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  member = await newMember(ctx);
  operator = await newOperator(ctx);
}, 60_000);
afterAll(() => ctx.close());

const entries = Object.entries(ENDPOINTS) as Array<[string, Endpoint]>;
const key = (method: string, path: string) => `${method} ${path}`;

/**
 * The calls safe to make again and again with a sample body (a page of a list, an exchange of the
 * catalog): the reads, and the check-in and an export link, harmless to repeat. Each is made below and
 * its answer parsed with the table's schema. Every other described call changes something (a binding,
 * a withdrawal, a partner ...) or needs a record set up first (a support request's detail): its answer
 * is checked in every server test that makes it, since `serve` (endpoint-route.ts) parses each
 * success's content with the table's schema outside production and answers HTTP 500 on a mismatch.
 */
const PAGE = { page: 1, pageSize: 10 };
const sampleBodies = (): Record<string, object> => ({
  userGetSettings: {},
  userVerifyEmail: { email: member.email },
  exchangeEstimate: { platId: 4, leverage: 20, seed: '1000', frequency: 'twoToFive' },
  activitySign: {},
  adminExportsCreate: { kind: 'withdrawals', from: '2026-01-01', to: '2026-01-31' },
  userVerifyExchangeUid: { platId: 4, uid: '12345678' },
  adminWhoami: {},
  adminMemberDetail: { userId: member.userId },
  adminMemberLedger: { userId: member.userId, ...PAGE },
  adminReconciliationSummary: {},
  adminReconciliationRoster: { platId: 4, ...PAGE },
  adminReconciliationRebates: { platId: 4, ...PAGE },
  exchangeIndex: {},
  exchangeDetail: { platId: 4 },
  userProfile: {},
  userMyInfo: {},
  exchangeExpireRebate: {},
  userConfigResJson: {},
  userWithdrawable: {},
  activitySignHistory: {},
  userIsSignTody: {},
  userGetMyInviteCode: {},
  userGetInviteLink: {},
  userMyFriends: PAGE,
  exchangeDepositRecord: PAGE,
  supportList: PAGE,
  activityPointsHistory: PAGE,
  userSeeRebateData: PAGE,
  userSeeRewardData: PAGE,
  userSeeAdjustments: PAGE,
  exchangeGetExchangeTaskDetail: {},
  adminDashboard: {},
  adminWithdrawalQueue: PAGE,
  adminPayoutWallet: {},
  adminPayoutReconciliation: {},
  adminAlertPreferences: {},
  adminTaskDefinitions: {},
  adminCatalog: {},
  adminAuditLog: PAGE,
  adminSearchMembers: { query: 'member', ...PAGE },
  adminSyncRuns: {},
  adminImportRuns: PAGE,
  adminPromotionCodes: PAGE,
  adminCorrectionsList: PAGE,
  adminSupportList: PAGE,
});

function callAs(endpoint: Endpoint, caller: Caller | null, body: object = {}) {
  if (endpoint.method === 'GET') {
    return ctx.app.inject({
      method: 'GET',
      url: endpoint.path,
      headers: caller ? { token: caller.token } : {},
    });
  }
  return call(ctx, endpoint.path, body, caller ? { token: caller.token } : {});
}

describe('the endpoint table', () => {
  it('lists every /elex route the server registers, and only those', () => {
    const registered = new Set(
      ctx.app.routeTable
        .filter((route) => route.url.startsWith('/elex/') && route.method !== 'HEAD')
        .map((route) => key(route.method, route.url)),
    );
    const listed = new Set(entries.map(([, endpoint]) => key(endpoint.method, endpoint.path)));
    expect([...registered].filter((route) => !listed.has(route))).toEqual([]);
    expect([...listed].filter((route) => !registered.has(route))).toEqual([]);
    expect(listed.size).toBe(entries.length);
  });

  it('says who may make each call, as the server enforces it', async () => {
    for (const [name, endpoint] of entries) {
      if (endpoint.method !== 'POST') continue;
      const visitor = (await callAs(endpoint, null)).json();
      if (endpoint.auth === 'public') {
        expect(visitor.state, name).not.toBe(State.SessionExpired);
        continue;
      }
      expect(visitor.state, name).toBe(State.SessionExpired);
      if (endpoint.auth === 'operator') {
        expect((await callAs(endpoint, member)).json().state, name).toBe(State.Forbidden);
      } else {
        // Logging out ends the session it is made with: a member of its own.
        const caller = name === 'userLogout' ? await newMember(ctx) : member;
        expect((await callAs(endpoint, caller)).json().state, name).not.toBe(State.SessionExpired);
      }
    }
  });

  it('describes the answer of every call but the one-time link, which answers a file', () => {
    const undescribed = entries.filter(([, endpoint]) => !endpoint.response).map(([name]) => name);
    const links = entries.filter(([, endpoint]) => endpoint.auth === 'link').map(([name]) => name);
    expect(undescribed).toEqual(links);
  });

  it('describes answers as the server sends them', async () => {
    const bodies = sampleBodies();
    const reads = entries.filter(([name]) => name in bodies);
    expect(reads.map(([name]) => name).sort()).toEqual(Object.keys(bodies).sort());
    for (const [name, endpoint] of reads) {
      expect(endpoint.response, `${name} has no answer schema`).toBeDefined();
      // A check-in works once a day: the member of the auth test above has had theirs.
      const caller =
        endpoint.auth === 'operator'
          ? operator
          : name === 'activitySign'
            ? await newMember(ctx)
            : endpoint.auth === 'member'
              ? member
              : null;
      const answer = (await callAs(endpoint, caller, bodies[name])).json();
      expect(answer.state, `${name}: ${answer.message}`).toBe(State.Success);
      const parsed = endpoint.response?.safeParse(answer.content);
      expect(parsed?.success ? [] : parsed?.error.issues, name).toEqual([]);
    }
  });
});

describe('page numbers', () => {
  /**
   * Every paged list caps a page asked for by number at PAGING.maxPage (with the record list's `after`
   * the only way past it): a larger one, up to numbers whose offset leaves the safe integers, is
   * refused as a bad page, in the member's language, never a 500.
   */
  it('refuses a page past the cap on every paged list, naming the page', async () => {
    const paged = Object.entries(sampleBodies()).filter(([, body]) => 'page' in body);
    expect(paged.length).toBeGreaterThan(10);
    for (const [name, body] of paged) {
      const endpoint = (ENDPOINTS as Record<string, Endpoint>)[name] as Endpoint;
      const caller = endpoint.auth === 'operator' ? operator : member;
      for (const page of [PAGING.maxPage + 1, 1e15, 2 ** 53 + 2]) {
        const res = await callAs(endpoint, caller, { ...body, page });
        expect(res.statusCode, `${name} page ${page}`).toBe(200);
        const answer = res.json();
        expect(answer.state, `${name} page ${page}: ${answer.message}`).toBe(State.ValidationFailed);
        expect(answer.message, name).toMatch(/page/i);
      }
      const last = (await callAs(endpoint, caller, { ...body, page: PAGING.maxPage })).json();
      expect(last.state, `${name} page ${PAGING.maxPage}: ${last.message}`).not.toBe(State.ValidationFailed);
    }
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document naming every call, its body and its answer', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    const validation = await new Validator().validate(document);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');

    const operations = Object.values(
      document.paths as Record<string, Record<string, { operationId: string }>>,
    )
      .flatMap((methods) => Object.values(methods))
      .map((operation) => operation.operationId);
    expect(operations.sort()).toEqual(entries.map(([name]) => name).sort());

    const login = document.paths['/elex/user/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email']),
    );
    expect(login.security).toBeUndefined();
    const wallet = document.paths['/elex/admin/payoutWallet'].post;
    expect(wallet.security).toEqual([{ session: [] }]);
    expect(wallet.responses['200'].content['application/json'].schema.properties.content).toMatchObject({
      oneOf: expect.any(Array),
    });
    expect(document.paths['/elex/admin/exports/download/{token}'].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'token', in: 'path', required: true })]),
    );
  });
});

describe('GET /api-docs', () => {
  it('is a page naming every call with who may make it, its body and its answer', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api-docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const page = res.body;
    for (const [name, endpoint] of entries) {
      expect(page, name).toContain(
        `<section id="${name}"><h3><code>${endpoint.method} ${endpoint.path}</code>`,
      );
    }
    const login = page.slice(page.indexOf('<section id="userLogin">'));
    expect(login.slice(0, login.indexOf('</section>'))).toContain('&quot;passwd&quot;');
    expect(page).toContain('an operator (a member with the role; 1003 for any other member)');
  });
});
