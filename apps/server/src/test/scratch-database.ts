import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database made for one test file (or one run), and how to remove it again. */
export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function onAdmin<T>(adminUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A new database on the server of `adminUrl` (TEST_DATABASE_URL): empty, or a copy of `template` (a
 * database nobody is connected to; PostgreSQL copies it in tens of milliseconds where migrating a new
 * one takes most of a second). drop() removes it with force: a killed process may leave connections.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix = 'elex_test',
  template?: string,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, (admin) =>
    admin.query(`create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await onAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}
