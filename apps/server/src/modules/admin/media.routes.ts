import type { FastifyInstance } from 'fastify';
import { findMediaRow } from './admin.repository.js';
import { LOGO_EXTENSIONS, type LogoType } from './logo-file.js';

/**
 * `GET /media/<sha256>.<ext>`: files operators uploaded (logos), public like the drawn logos under
 * /logos. The name is the content's hash, so the answer never changes and is cached for good. Served
 * with its checked type, `nosniff`, and a CSP that runs nothing, so even an SVG opened on its own
 * cannot run a script (defence in depth: uploads were checked already).
 */
export async function mediaRoutes(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const match = /^([0-9a-f]{64})\.(svg|png|webp)$/.exec(request.params.file);
    const row = match?.[1] ? await findMediaRow(app.deps.db, match[1]) : undefined;
    if (!match || !row || LOGO_EXTENSIONS[row.contentType as LogoType] !== match[2]) {
      return reply.code(404).header('cache-control', 'no-store').type('text/plain').send('Not found');
    }
    return reply
      .header('content-type', row.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-disposition', `inline; filename="${match[1]}.${match[2]}"`)
      .send(row.bytes);
  });
}
