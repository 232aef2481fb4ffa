import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-app.js';
import { builtOnce } from './built-once.js';
import type { DatabaseHandle, Executor } from './client.js';
import { users } from './schema.js';

describe('builtOnce', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('builds a query once per handle and per transaction, and answers each execution with its values', async () => {
    const builtFor: Executor[] = [];
    const codeOf = builtOnce((db) => {
      builtFor.push(db);
      return db
        .select({ code: users.userCode })
        .from(users)
        .where(eq(users.id, sql.placeholder('id')))
        .prepare('built_once_test_code_of');
    });
    await handle.db.execute(sql`
      insert into users (id, user_code, invite_code, created_at) values
        (900001, 'BUILT1', 'IB1', now()), (900002, 'BUILT2', 'IB2', now())`);

    expect(await codeOf(handle.db).execute({ id: 900001 })).toEqual([{ code: 'BUILT1' }]);
    expect(await codeOf(handle.db).execute({ id: 900002 })).toEqual([{ code: 'BUILT2' }]);
    expect(await codeOf(handle.db).execute({ id: 1 })).toEqual([]);
    expect(builtFor).toEqual([handle.db]);

    // A transaction is a handle of its own: its query runs on the transaction's connection.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`update users set user_code = 'BUILT1X' where id = 900001`);
      expect(await codeOf(tx).execute({ id: 900001 })).toEqual([{ code: 'BUILT1X' }]);
      expect(await codeOf(tx).execute({ id: 900002 })).toEqual([{ code: 'BUILT2' }]);
    });
    expect(builtFor).toHaveLength(2);
    expect(builtFor[1]).not.toBe(handle.db);
  });
});
