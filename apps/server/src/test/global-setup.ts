import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a freshly migrated embedded database, for test files to start from. */
    pgliteTemplate: string;
    /** A dump of a fresh embedded database before any migration, for the migrations' own tests. */
    pgliteEmpty: string;
  }
}

/**
 * Creating a PGlite (its initdb) and migrating it cost seconds on a small machine, and every test file
 * wants its own database: create one once per run and dump it before the migrations (the migrations'
 * tests start from that) and after them (every other file starts from that), and let each file load
 * a dump instead.
 */
export default async function setup(project: TestProject) {
  // On PostgreSQL each file creates a database of its own and none opens an embedded one (the
  // PGlite-only files are left out of that pass: vitest.config.ts): no template to make.
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    project.provide('pgliteEmpty', '');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-pglite-template-'));
  const fresh = await PGlite.create();
  const empty = await fresh.dumpDataDir('none');
  await fresh.close();
  const emptyFile = path.join(dir, 'empty.tar');
  fs.writeFileSync(emptyFile, Buffer.from(await empty.arrayBuffer()));

  const handle = await openDatabase({ kind: 'pglite', template: empty });
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  project.provide('pgliteEmpty', emptyFile);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
