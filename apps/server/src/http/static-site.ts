import fs from 'node:fs';
import path from 'node:path';
import { State, translate } from '@elex/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import mime from 'mime-types';
import { compressBoth, type EncodedBody, encodedBody, isCompressible, sendEncoded } from './encoded-body.js';
import { requestLocale, sendEnvelope } from './envelope.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Revalidated on every use (a 304 when unchanged), so a new release reaches users at once. */
const REVALIDATE = 'no-cache';
const PRECOMPRESSED = { br: '.br', gzip: '.gz' } as const;

/** One file of the built site, read on its first request and then served from memory. */
interface SiteFile {
  absolutePath: string;
  cacheControl: string;
  loaded?: EncodedBody;
  loading?: Promise<EncodedBody>;
}

/**
 * Serves the built SPA from memory: hashed assets cached for a year, `index.html` and the other files
 * revalidated, and every other non-API page path answered with `index.html` so the router can take it
 * (history mode). Unknown `/elex` paths get a not-found envelope instead.
 *
 * The file list is taken at start (a new build needs a restart, as before). Each file is read once and
 * kept with its `.br` and `.gz` siblings, which the web build writes beside every compressible file
 * (apps/web/vite-precompress.ts); a file without them is compressed once on its first request.
 */
export async function registerStaticSite(
  app: FastifyInstance,
  webDist: string | undefined,
): Promise<LoadedPage> {
  const hasSite = webDist !== undefined && fs.existsSync(path.join(webDist, 'index.html'));
  const files = hasSite ? listSite(webDist) : new Map<string, SiteFile>();
  const indexHtml = files.get('/index.html');

  // One route per top-level file and one wildcard per top-level folder, looked up in the list: a
  // route per file (171 in our build) took a tenth of the start. compress: false — the bytes are
  // compressed already; the plugin would only look and pass.
  const topLevel = new Set([...files.keys()].map((url) => url.split('/')[1] ?? ''));
  for (const name of topLevel) {
    const file = files.get(`/${name}`);
    if (file) {
      app.get(`/${name}`, { compress: false }, (request, reply) => serveFile(request, reply, file));
      continue;
    }
    app.get<{ Params: { '*': string } }>(`/${name}/*`, { compress: false }, (request, reply) => {
      const inFolder = files.get(`/${name}/${request.params['*']}`);
      return inFolder ? serveFile(request, reply, inFolder) : reply.callNotFound();
    });
  }
  if (indexHtml) app.get('/', { compress: false }, (request, reply) => serveFile(request, reply, indexHtml));

  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url === '/elex' || request.url.startsWith('/elex/') || request.url.startsWith('/elex?');
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApi &&
      !request.url.startsWith('/assets/');
    if (indexHtml && wantsPage) return serveFile(request, reply, indexHtml);
    return sendEnvelope(reply, 404, {
      state: State.NotFound,
      message: translate(requestLocale(request), 'notFound'),
      content: null,
    });
  });
  // `/` and `/index.html` once index.html is in memory: what the hot answers may send (hot-answers.ts).
  return (url) =>
    indexHtml?.loaded && (url === '/' || url === '/index.html')
      ? { body: indexHtml.loaded, cacheControl: indexHtml.cacheControl }
      : undefined;
}

/** A page served from memory by URL, when it is loaded: undefined for anything else. */
export type LoadedPage = (url: string) => { body: EncodedBody; cacheControl: string } | undefined;

/** Every file under the site root by URL path; dot folders (Vite's manifest) and siblings left out. */
function listSite(root: string): Map<string, SiteFile> {
  const files = new Map<string, SiteFile>();
  const names = fs.readdirSync(root, { recursive: true, withFileTypes: true });
  const all = new Set(names.map((entry) => path.join(entry.parentPath, entry.name)));
  // path.relative per file took 10–17 ms of a start for the build's 400 files; there are a few folders.
  const folders = new Map<string, string>();
  for (const entry of names) {
    if (!entry.isFile()) continue;
    const absolutePath = path.join(entry.parentPath, entry.name);
    let folder = folders.get(entry.parentPath);
    if (folder === undefined) {
      folder = path.relative(root, entry.parentPath);
      folders.set(entry.parentPath, folder);
    }
    const relative = folder ? `${folder}${path.sep}${entry.name}` : entry.name;
    const isSibling = Object.values(PRECOMPRESSED).some(
      (suffix) => absolutePath.endsWith(suffix) && all.has(absolutePath.slice(0, -suffix.length)),
    );
    if (isSibling || relative.split(path.sep).some((part) => part.startsWith('.'))) continue;
    // Relative to the site root: a site built under a folder named `assets` must not make
    // index.html immutable.
    const isAsset = relative.startsWith(`assets${path.sep}`);
    files.set(`/${relative.split(path.sep).join('/')}`, {
      absolutePath,
      cacheControl: isAsset ? IMMUTABLE : REVALIDATE,
    });
  }
  return files;
}

function serveFile(request: FastifyRequest, reply: FastifyReply, file: SiteFile) {
  if (file.loaded) return sendEncoded(request, reply, file.loaded, file.cacheControl);
  return loadFile(file).then(
    (body) => sendEncoded(request, reply, body, file.cacheControl),
    (error: NodeJS.ErrnoException) => {
      // Removed since the start: gone, not a server fault.
      if (error.code === 'ENOENT') return reply.callNotFound();
      throw error;
    },
  );
}

function loadFile(file: SiteFile): Promise<EncodedBody> {
  file.loading ??= readEncoded(file.absolutePath).then(
    (body) => {
      file.loaded = body;
      return body;
    },
    (error: unknown) => {
      file.loading = undefined;
      throw error;
    },
  );
  return file.loading;
}

async function readEncoded(absolutePath: string): Promise<EncodedBody> {
  const contentType = mime.contentType(path.extname(absolutePath)) || 'application/octet-stream';
  const [identity, stat] = await Promise.all([
    fs.promises.readFile(absolutePath),
    fs.promises.stat(absolutePath),
  ]);
  if (!isCompressible(contentType, identity.length))
    return encodedBody(contentType, { identity }, { etag: true });
  const [br, gzip] = await Promise.all([
    readSibling(absolutePath + PRECOMPRESSED.br, stat.mtimeMs),
    readSibling(absolutePath + PRECOMPRESSED.gzip, stat.mtimeMs),
  ]);
  const codings = br && gzip ? { br, gzip } : await compressBoth(identity);
  return encodedBody(contentType, { identity, ...codings }, { etag: true });
}

/** A precompressed sibling, unless it is missing or older than its file (then it may not match). */
async function readSibling(siblingPath: string, fileMtimeMs: number): Promise<Buffer | undefined> {
  const stat = await fs.promises.stat(siblingPath).catch(() => undefined);
  if (!stat || stat.mtimeMs < fileMtimeMs) return undefined;
  return fs.promises.readFile(siblingPath);
}
