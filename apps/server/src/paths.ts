import path from 'node:path';

/**
 * The server package's folder (apps/server). This file sits one level below it both as source
 * (src/paths.ts) and in the build, which bundles everything into dist/: any file that resolves a
 * path at run time (migrations, the web build) starts from here, never from its own folder.
 */
export const serverRoot = path.resolve(import.meta.dirname, '..');
