import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated embedded database, for test files to start from. */
    pgliteTemplate: string;
  }
}

/**
 * Migrating a fresh PGlite costs seconds on a small machine, and every test file wants its own
 * database: migrate once per run, dump it, and let each file load the dump instead.
 */
export default async function setup(project: TestProject) {
  const handle = await openDatabase({ kind: 'pglite' });
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'elex-pglite-template-')), 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
