import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { rowsOf } from '../../db/rows.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { newMember } from '../admin/test-support.js';
import type { CashbackTestContext } from '../cashback/test-support.js';

/**
 * Two members binding one XME account written in two letter cases at the same moment: one holds it,
 * the other is refused ("XME UIDs that differ only in case are one account", docs/engagement.md). On
 * PostgreSQL (TEST_DATABASE_URL) the two requests go to two app instances with their own pools.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let ctx: CashbackTestContext;
let apps: App[];
let race: RaceApps;

beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
});
afterAll(() => race?.close());

function bind(n: number, token: string, xmeUid: string) {
  return (apps[n % apps.length] as App)
    .inject({
      method: 'POST',
      url: '/elex/user/bindXmeUid',
      headers: { 'content-type': 'application/json', token },
      payload: { xmeUid },
    })
    .then((res) => res.json() as { state: number; message: string });
}

describe(`binding one XME account at once (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('in two letter cases by two members: one holds it, the other is refused, every time', async () => {
    for (let round = 0; round < 10; round += 1) {
      const [first, second] = [await newMember(ctx), await newMember(ctx)];
      const id = `xmeRace${round}Case`;
      const answers = await Promise.all([
        bind(round, first.token, id.toLowerCase()),
        bind(round + 1, second.token, id.toUpperCase()),
      ]);
      expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused]);
      expect(answers.find((answer) => answer.state === State.Refused)?.message).toBe(
        'This account is already bound!',
      );
      const holders = rowsOf<{ user_id: number }>(
        await ctx.db.execute(sql`select user_id from xme_bindings where lower(xme_uid) = lower(${id})`),
      );
      expect(holders).toHaveLength(1);
    }
  });
});
