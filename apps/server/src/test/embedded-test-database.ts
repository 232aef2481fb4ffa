import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { openEmbedded } from '../db/embedded.js';

/**
 * The suite's embedded databases are small and short-lived, and PGlite clears its whole buffer pool
 * as it starts (about a second of CPU at its default 128MB), so they ask for a smaller pool.
 */
export const TEST_SHARED_BUFFERS = '16MB';

/**
 * A fresh migrated embedded database for one test file: a copy of the run's migrated template
 * directory (global-setup.ts) opened in place, which spares unpacking a 43 MB dump into memory; the
 * copy is removed on close. Without a template (a file run outside the suite's setup) it migrates a
 * database of its own in memory.
 */
export async function openEmbeddedTestDatabase(): Promise<DatabaseHandle> {
  const template = inject('pgliteTemplate');
  if (!template || !fs.existsSync(template)) {
    return openDatabase({ kind: 'pglite', sharedBuffers: TEST_SHARED_BUFFERS });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-test-db-'));
  fs.cpSync(template, dataDir, { recursive: true });
  const handle = await openDatabase({ kind: 'pglite', dataDir, sharedBuffers: TEST_SHARED_BUFFERS });
  return {
    ...handle,
    async close() {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An empty, unmigrated embedded database, for the tests of the migrations themselves: the run's dump
 * of a fresh database (global-setup.ts), which spares the file an initdb of its own, or a new one
 * without it.
 */
export async function openEmptyEmbeddedDatabase(): Promise<PGlite> {
  const empty = inject('pgliteEmpty');
  return empty && fs.existsSync(empty)
    ? openEmbedded({ loadDataDir: new Blob([fs.readFileSync(empty)]), sharedBuffers: TEST_SHARED_BUFFERS })
    : openEmbedded({ sharedBuffers: TEST_SHARED_BUFFERS });
}
