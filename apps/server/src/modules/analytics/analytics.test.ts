import { State } from '@elex/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../db/schema.js';
import { createTestApp, post } from '../../test/test-app.js';
import { TRACK_RATE_LIMIT } from './analytics.routes.js';

function trackFrom(app: Awaited<ReturnType<typeof createTestApp>>['app'], ip: string, page: string) {
  return app.inject({
    method: 'POST',
    url: '/elex/track',
    payload: { event: 'page_view', page },
    headers: { 'content-type': 'application/json' },
    remoteAddress: ip,
  });
}

describe('POST /elex/track', () => {
  let ctx: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('stores a page view with the default channel when none is given', async () => {
    const res = await post(
      ctx.app,
      '/elex/track',
      { event: 'page_view', page: '/calculator' },
      { 'user-agent': 'UA-test', lang: 'ko' },
    );
    expect(res.json()).toMatchObject({ state: 0 });
    const rows = await ctx.db.select().from(analyticsEvents);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event: 'page_view',
      page: '/calculator',
      channel: 'direct',
      agent: 'UA-test',
      locale: 'ko',
    });
  });

  it('refuses an unknown event name, naming the field, and stores nothing', async () => {
    const before = (await ctx.db.select().from(analyticsEvents)).length;
    const res = await post(ctx.app, '/elex/track', { event: 'drop_tables', page: '/' });
    expect(res.json()).toMatchObject({ state: 1001, message: 'event: invalid value' });
    expect(await ctx.db.select().from(analyticsEvents)).toHaveLength(before);
  });

  it('refuses a flood from one address with 429 and stores none of the refused events', async () => {
    const flood = '/flood';
    const statuses: number[] = [];
    for (let i = 0; i < TRACK_RATE_LIMIT.max; i += 1) {
      statuses.push((await trackFrom(ctx.app, '203.0.113.7', flood)).statusCode);
    }
    expect(TRACK_RATE_LIMIT.max).toBe(120);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await trackFrom(ctx.app, '203.0.113.7', flood);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ state: State.TooManyRequests, content: null });
    const stored = await ctx.db.select().from(analyticsEvents).where(eq(analyticsEvents.page, flood));
    expect(stored).toHaveLength(TRACK_RATE_LIMIT.max);

    // Another visitor is not held back by that address.
    const other = await trackFrom(ctx.app, '203.0.113.8', flood);
    expect(other.json()).toMatchObject({ state: 0 });
  });

  it('counts every address of one IPv6 /64 as one client: a flood cannot rotate through its own network', async () => {
    const flood = '/flood-v6';
    // One home or server gets a whole /64; each of its addresses used to get its own 120 a minute.
    const address = (i: number) => `2001:db8:1:2::${(i + 1).toString(16)}`;
    for (let i = 0; i < TRACK_RATE_LIMIT.max; i += 1) {
      expect((await trackFrom(ctx.app, address(i), flood)).statusCode).toBe(200);
    }
    const refused = await trackFrom(ctx.app, `2001:db8:1:2:ffff:${'1:2:3'}`, flood);
    expect(refused.statusCode).toBe(429);
    const stored = await ctx.db.select().from(analyticsEvents).where(eq(analyticsEvents.page, flood));
    expect(stored).toHaveLength(TRACK_RATE_LIMIT.max);
    // The next /64 is another client.
    expect((await trackFrom(ctx.app, '2001:db8:1:3::1', flood)).statusCode).toBe(200);
  });
});
