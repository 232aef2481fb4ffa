import type { PGlite } from '@electric-sql/pglite';

/**
 * Opens an embedded PGlite with the extensions the migrations create (`pg_trgm` since
 * 0062_member_search_trigram): an embedded database that holds an index of an extension cannot be
 * queried without the extension loaded, so every PGlite of the project, the server's and the tests',
 * opens here. Loaded only when used: a server on PostgreSQL never loads PGlite.
 */
export async function openEmbedded(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  return PGlite.create({ ...options, extensions: { pg_trgm } });
}
