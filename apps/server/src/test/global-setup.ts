import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { openEmbedded } from '../db/embedded.js';
import { TEST_SHARED_BUFFERS } from './embedded-test-database.js';
import { createScratchDatabase } from './scratch-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A freshly migrated embedded database's directory, which each test file copies and opens. */
    pgliteTemplate: string;
    /** A dump of a fresh embedded database before any migration, for the migrations' own tests. */
    pgliteEmpty: string;
    /** On PostgreSQL: a migrated database that test files copy (`create database … template`). */
    postgresTemplate: string;
  }
}

/**
 * Creating a PGlite (its initdb) and migrating it cost seconds on a small machine, and every test file
 * wants its own database: create one once per run, dump it before the migrations (the migrations'
 * tests load that) and migrate it into a directory (every other file opens a copy of that).
 */
export default async function setup(project: TestProject) {
  // On PostgreSQL each file copies a migrated database and none opens an embedded one (the PGlite-only
  // files are left out of that pass: vitest.config.ts).
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const template = await createScratchDatabase(adminUrl, 'elex_template');
    await (await openDatabase({ kind: 'postgres', url: template.url, poolSize: 1 })).close();
    project.provide('pgliteTemplate', '');
    project.provide('pgliteEmpty', '');
    project.provide('postgresTemplate', template.name);
    return () => template.drop();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-pglite-template-'));
  const fresh = await openEmbedded({ sharedBuffers: TEST_SHARED_BUFFERS });
  const empty = await fresh.dumpDataDir('none');
  await fresh.close();
  const emptyFile = path.join(dir, 'empty.tar');
  fs.writeFileSync(emptyFile, Buffer.from(await empty.arrayBuffer()));

  // Migrated into a directory that each file copies and opens in place (embedded-test-database.ts).
  const templateDir = path.join(dir, 'template');
  const handle = await openDatabase({
    kind: 'pglite',
    dataDir: templateDir,
    template: empty,
    sharedBuffers: TEST_SHARED_BUFFERS,
  });
  await handle.close();
  project.provide('pgliteTemplate', templateDir);
  project.provide('pgliteEmpty', emptyFile);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
