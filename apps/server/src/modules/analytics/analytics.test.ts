import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../db/schema.js';
import { createTestApp, post } from '../../test/test-app.js';

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
});
