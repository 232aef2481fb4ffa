import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSharedTestDatabase } from '../test/test-app.js';
import type { DatabaseHandle } from './client.js';
import { isPgPool } from './pg-pool.js';

describe('isPgPool (node-postgres told apart without loading it)', () => {
  let shared: Awaited<ReturnType<typeof openSharedTestDatabase>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    shared = await openSharedTestDatabase(1);
    handle = shared.handles[0] as DatabaseHandle;
  });
  afterAll(() => shared?.close());

  it('takes a pg.Pool, not a pg.Client, a PGlite or something that only queries', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(isPgPool(pool)).toBe(true);
    await pool.end();
    expect(isPgPool(new pg.Client({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }))).toBe(false);
    expect(isPgPool({ query: async () => ({ rows: [] }) })).toBe(false);
    expect(isPgPool(undefined)).toBe(false);
    // The test database's own client: a pg.Pool on PostgreSQL, a PGlite otherwise.
    const client = (handle.db as { $client?: unknown }).$client;
    expect(isPgPool(client)).toBe(handle.kind === 'postgres');
  });
});
