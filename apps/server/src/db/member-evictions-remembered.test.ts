import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../modules/auth/test-support.js';
import { type CashbackTestContext, nextUid } from '../modules/cashback/test-support.js';
import { type MemberInstances, openMemberInstances } from '../test/member-instances.js';
import { answerKind, uidKey } from './member-answers.js';
import { MEMBER_CHANGES_CHANNEL } from './member-changes-channel.js';

/**
 * The evictions a process remembers (db/member-answers.ts): only an eviction the LRU forgets may
 * refuse the answers of members (or UIDs) it has no entry for. A member or UID named again replaces
 * its entry: nothing is forgotten, so no unrelated answer read meanwhile is refused.
 */

const BITGET = 4;

describe('remembered evictions', () => {
  let instances: MemberInstances;
  let a: TestContext;

  beforeAll(async () => {
    instances = await openMemberInstances(1);
    [a] = instances.contexts as [CashbackTestContext];
  });
  afterAll(() => instances.close());

  const notify = (payload: string) =>
    // From A's own connection: heard by A before the statement returns (PGlite: its one session).
    a.db.execute(sql`select pg_notify(${MEMBER_CHANGES_CHANNEL}, ${payload})`);

  it('a member named twice while another member’s answer loads does not refuse keeping that answer', async () => {
    const answers = a.app.deps.memberAnswers;
    if (!answers) throw new Error('the member cache is on in this test');
    const probe = answers.of(answerKind<string>('remembered-members', 10));
    const reader = 987_201;
    const other = 987_202;
    const first = await probe.read('reader', async () => {
      await notify(String(other));
      await notify(String(other));
      return { member: reader, value: 'first' };
    });
    expect(first).toBe('first');
    expect(await probe.read('reader', async () => ({ member: reader, value: 'second' }))).toBe('first');
  });

  it('a UID named twice while an answer covering another UID loads does not refuse keeping it', async () => {
    const answers = a.app.deps.memberAnswers;
    if (!answers) throw new Error('the member cache is on in this test');
    const probe = answers.of(answerKind<string>('remembered-uids', 10));
    const covering = { member: 987_203, uids: [uidKey(BITGET, nextUid())] };
    const named = nextUid();
    const first = await probe.read('reader', async () => {
      await notify(`u${BITGET}:${named}`);
      await notify(`u${BITGET}:${named}`);
      return { ...covering, value: 'first' };
    });
    expect(first).toBe('first');
    expect(await probe.read('reader', async () => ({ ...covering, value: 'second' }))).toBe('first');
  });
});
