import { ADMIN_API } from '@elex/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The access log's `req`: Fastify's own fields, with the one-time token of an export download link
 * (`/elex/admin/exports/download/<token>`) left out of the URL. The link is the download's credential
 * while it is valid, and whoever reads the log must not be able to use it first.
 */
const EXPORT_LINK = new RegExp(
  `^(${ADMIN_API.adminExportsDownload.replace(':token', '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})[^?#]*`,
  'i',
);

/** A URL as the log shows it: an export link's token replaced by `[token]`. */
function loggedUrl(url: string): string {
  return url.replace(EXPORT_LINK, '$1[token]');
}

/** Fastify's default request serializer (fastify/lib/logger-pino.js) with `loggedUrl`. */
export function requestSerializer(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: loggedUrl(request.url),
    version: Array.isArray(version) ? version[0] : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined,
  };
}
