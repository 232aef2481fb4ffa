import fs from 'node:fs';
import path from 'node:path';
import { State, translate } from '@elex/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { requestLocale, sendEnvelope } from './envelope.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: hashed assets cached for a year, `index.html` never cached, and every other
 * non-API path answered with `index.html` so the router can take it (history mode). Unknown `/elex`
 * paths get a not-found envelope instead.
 */
export async function registerStaticSite(app: FastifyInstance, webDist: string | undefined) {
  const hasSite = webDist !== undefined && fs.existsSync(path.join(webDist, 'index.html'));
  if (hasSite) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Relative to the site root: a site built under a folder named `assets` must not make
        // index.html immutable.
        const isAsset = path.relative(webDist, filePath).startsWith(`assets${path.sep}`);
        res.header('cache-control', isAsset ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi =
      request.url === '/elex' || request.url.startsWith('/elex/') || request.url.startsWith('/elex?');
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApi &&
      !request.url.startsWith('/assets/');
    if (hasSite && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendEnvelope(reply, 404, {
      state: State.NotFound,
      message: translate(requestLocale(request), 'notFound'),
      content: null,
    });
  });
}
