import type { PGlite } from '@electric-sql/pglite';

interface EmbeddedOptions {
  /** A directory on disk (kept between starts); without it the database lives in memory. */
  dataDir?: string;
  /** A dump to start from (`dumpDataDir`), unpacked into `dataDir` or memory. */
  loadDataDir?: Blob;
  /**
   * PostgreSQL's `shared_buffers` (PGlite's default is 128MB). Starting clears the whole pool in
   * WebAssembly, about a second of CPU at 128MB: the test suite, which opens hundreds of small
   * databases, asks for less (docs/decisions.md, "The suite's embedded databases start from a
   * directory, with a smaller buffer pool").
   */
  sharedBuffers?: string;
}

/**
 * Opens an embedded PGlite with the extensions the migrations create (`pg_trgm` since
 * 0062_member_search_trigram): an embedded database that holds an index of an extension cannot be
 * queried without the extension loaded, so every PGlite of the project, the server's and the tests',
 * opens here. Loaded only when used: a server on PostgreSQL never loads PGlite.
 */
export async function openEmbedded({ sharedBuffers, ...options }: EmbeddedOptions = {}): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const startParams = sharedBuffers
    ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`]
    : undefined;
  return PGlite.create({ ...options, extensions: { pg_trgm }, startParams });
}
