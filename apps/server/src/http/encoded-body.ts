import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The content codings we answer with, in the order we prefer them (smallest first). */
export type Encoding = 'br' | 'gzip' | 'identity';

/** Below this size compression saves less than the headers it adds (the compress plugin's threshold). */
const COMPRESSION_THRESHOLD = 1024;

/** Types worth compressing: text, JSON, JavaScript, XML, SVG (images and fonts are compressed already). */
const COMPRESSIBLE = /^text\/|[/+](?:json|javascript|xml)(?:;|$)/;

export function isCompressible(contentType: string, bytes: number): boolean {
  return bytes >= COMPRESSION_THRESHOLD && COMPRESSIBLE.test(contentType);
}

/**
 * One answer in each coding it is offered in, compressed once and sent many times: static files
 * (precompressed by the web build) and cached API answers. The ETag names one representation, so each
 * coding has its own (RFC 9110 8.8.3: a strong validator differs whenever the bytes differ).
 */
export interface EncodedBody {
  contentType: string;
  codings: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** The codings present, in preference order; identity always last. */
  offered: Encoding[];
  etags?: Record<Encoding, string>;
}

export function encodedBody(
  contentType: string,
  codings: Partial<Record<Encoding, Buffer>> & { identity: Buffer },
  options: { etag?: boolean } = {},
): EncodedBody {
  // A compressed coding that is not smaller than the plain bytes is not worth a Vary.
  const offered = (['br', 'gzip'] as const).filter(
    (coding) => (codings[coding]?.length ?? Number.POSITIVE_INFINITY) < codings.identity.length,
  );
  const body: EncodedBody = { contentType, codings, offered: [...offered, 'identity'] };
  if (options.etag) {
    const hash = createHash('sha256').update(codings.identity).digest('base64url').slice(0, 27);
    body.etags = { identity: `"${hash}"`, br: `"${hash}-br"`, gzip: `"${hash}-gz"` };
  }
  return body;
}

const brotliOptions = (bytes: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Brotli and gzip at their best settings, off the event loop: paid once per body, not per request. */
export async function compressBoth(identity: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(identity, brotliOptions(identity.length)),
    gzip(identity, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

// Browsers send a handful of distinct Accept-Encoding values: remember the answer for each, but never
// more than a few hundred (the header is the client's to choose).
const NEGOTIATION_CACHE_LIMIT = 256;
const negotiators = new Map<string, Negotiator<Encoding>>();

function negotiatorFor(offered: Encoding[]): Negotiator<Encoding> {
  const key = offered.join(',');
  let negotiator = negotiators.get(key);
  if (!negotiator) {
    const cache = new Map<string, Encoding>();
    negotiator = new Negotiator<Encoding>({
      supportedValues: offered,
      cache: {
        has: (header) => cache.has(header),
        get: (header) => cache.get(header),
        set(header, value) {
          if (cache.size >= NEGOTIATION_CACHE_LIMIT) cache.clear();
          cache.set(header, value as Encoding);
          return this;
        },
      },
    });
    negotiators.set(key, negotiator);
  }
  return negotiator;
}

/**
 * The coding to answer with: the client's preference by q-value among what is offered, ours (br, gzip)
 * on a tie. No header, nothing acceptable or only unknown codings (zstd, compress): the plain bytes,
 * which every client reads.
 */
export function chooseEncoding(acceptEncoding: string | undefined, offered: Encoding[]): Encoding {
  if (!acceptEncoding || offered.length === 1) return 'identity';
  return negotiatorFor(offered).negotiate(acceptEncoding) ?? 'identity';
}

/** If-None-Match against one ETag, compared weakly as RFC 9110 13.1.2 asks for GET. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers with the coding the client accepts best, `Vary: accept-encoding` whenever there was a choice,
 * and a 304 when the client already holds this representation. The compress plugin sees the
 * Content-Encoding and leaves the bytes alone.
 */
export function sendEncoded(
  request: FastifyRequest,
  reply: FastifyReply,
  body: EncodedBody,
  cacheControl?: string,
): FastifyReply {
  const encoding = chooseEncoding(request.headers['accept-encoding'], body.offered);
  reply.header('content-type', body.contentType);
  if (body.offered.length > 1) reply.header('vary', 'accept-encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  if (cacheControl) reply.header('cache-control', cacheControl);
  const etag = body.etags?.[encoding];
  if (etag) {
    reply.header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  return reply.send(body.codings[encoding] ?? body.codings.identity);
}

const cachedAnswers = new WeakMap<Buffer, EncodedBody>();

/**
 * A cached API answer (the same Buffer for as long as its cache holds it) in every coding: compressed
 * on first use and kept beside the Buffer, so the next request costs a lookup instead of a brotli run.
 * A new Buffer (the cache reloaded) is compressed again; the old one goes with its Buffer.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  identity: Buffer,
  contentType: string,
): FastifyReply {
  return sendEncoded(request, reply, cachedEncodedBody(identity, contentType));
}

/** The cached answer in every coding, made on first use and kept beside its Buffer (hot-answers.ts too). */
export function cachedEncodedBody(identity: Buffer, contentType: string): EncodedBody {
  let body = cachedAnswers.get(identity);
  if (!body) {
    body = isCompressible(contentType, identity.length)
      ? encodedBody(contentType, {
          identity,
          // Synchronous, once per cached answer: a few kilobytes take well under a millisecond.
          br: zlib.brotliCompressSync(identity, brotliOptions(identity.length)),
          gzip: zlib.gzipSync(identity, { level: zlib.constants.Z_BEST_COMPRESSION }),
        })
      : encodedBody(contentType, { identity });
    cachedAnswers.set(identity, body);
  }
  return body;
}
