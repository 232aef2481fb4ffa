import { State, translate } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { listAudit } from './audit.service.js';
import { type Caller, newOperator } from './test-support.js';

/**
 * Catalog writes built on one version of a partner, racing: on PGlite one app; on PostgreSQL
 * (TEST_DATABASE_URL) two app instances, each with its own pool, so only the partner's row lock stands
 * between the version check and the write.
 */
type App = Awaited<ReturnType<typeof buildApp>>;
type Answer = {
  state: number;
  message: string;
  content: { updatedAt: string; logo: string; status: string };
};
let apps: App[];
let race: RaceApps;
let operators: Caller[];
const OKX = 2;

beforeAll(async () => {
  race = await openRaceApps();
  apps = race.apps;
  operators = [await newOperator(race.ctx), await newOperator(race.ctx)];
});
afterAll(() => race?.close());

/** A console call by the n-th operator on the n-th instance. */
function consoleCall(n: number, path: string, payload: object): Promise<Answer> {
  return (apps[n % apps.length] as App)
    .inject({
      method: 'POST',
      url: `/elex/admin/${path}`,
      headers: { 'content-type': 'application/json', token: (operators[n % 2] as Caller).token },
      payload,
    })
    .then((res) => res.json() as Answer);
}

async function loaded() {
  const { content } = await consoleCall(0, 'catalog', {});
  const {
    vipTiers: _v,
    activities: _a,
    ...fields
  } = (
    content as unknown as { exchanges: Array<Record<string, unknown> & { platId: number }> }
  ).exchanges.find((row) => row.platId === OKX) as Record<string, unknown>;
  return fields as Record<string, unknown> & { updatedAt: string; logo: string; status: string };
}

const auditActions = async () =>
  (await listAudit(race.ctx.db, { target: `exchange:${OKX}`, page: 1, pageSize: 100 })).rows.map(
    (row) => row.action,
  );

const svg = (fill: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="${fill}"/></svg>`,
  ).toString('base64');

describe(`catalog writes racing (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('two logos uploaded from one version at once: one is saved and audited, the other refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      const seen = await loaded();
      const entries = (await auditActions()).length;
      const answers = await Promise.all(
        [0, 1].map((n) =>
          consoleCall(n, 'uploadLogo', {
            platId: OKX,
            updatedAt: seen.updatedAt,
            fileName: `r${round}-${n}.svg`,
            content: svg(`#${round}${n}${round}${n}${round}${n}`),
          }),
        ),
      );
      expect(answers.map((answer) => answer.state).sort()).toEqual([0, State.Refused].sort());
      const refused = answers.find((answer) => answer.state !== 0);
      expect(refused?.message).toBe(translate('en', 'logoEditedMeanwhile'));
      const winner = answers.find((answer) => answer.state === 0) as Answer;
      const now = await loaded();
      expect(now.logo).toBe(winner.content.logo);
      expect(now.updatedAt).toBe(winner.content.updatedAt);
      expect(await auditActions()).toHaveLength(entries + 1);
    }
  });

  it('a retire and a save from one version at once: one goes through, the other is refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      const seen = await loaded();
      const [retire, save] = await Promise.all([
        consoleCall(round, 'retireExchange', { platId: OKX, updatedAt: seen.updatedAt }),
        consoleCall(round + 1, 'updateExchange', { ...seen, score: `${(round % 9) + 1}.5` }),
      ]);
      expect([retire.state, save.state].sort()).toEqual([0, State.Refused].sort());
      const now = await loaded();
      if (retire.state === 0) {
        expect(retire.message).toBe(translate('en', 'exchangeRetiredDone'));
        expect(save.message).toBe(translate('en', 'exchangeEditedMeanwhile'));
        expect(now).toMatchObject({ status: 'retired', score: seen.score });
        const back = await consoleCall(0, 'reinstateExchange', { platId: OKX, updatedAt: now.updatedAt });
        expect(back.state).toBe(0);
      } else {
        expect(retire.message).toBe(translate('en', 'exchangeStatusEditedMeanwhile'));
        expect(now).toMatchObject({ status: 'live', score: `${(round % 9) + 1}.5` });
      }
    }
  });
});
