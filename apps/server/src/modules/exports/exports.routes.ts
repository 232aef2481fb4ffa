import { toLocale, translate } from '@elex/contract';
import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { serve } from '../../http/endpoint-route.js';
import { openExport } from './exports.service.js';

/**
 * `GET /elex/admin/exports/download/<token>`: outside the admin plugin's session check on purpose,
 * since a browser download sends no `token` header; the one-time link made by the operator call
 * `exports/create` is the credential. A refusal is a short text page in the language the console
 * names (`?lang=`), since the browser shows it as it is.
 */
export async function exportDownloadRoutes(app: FastifyInstance) {
  // No automatic HEAD: a link checker's HEAD would use up the one download.
  serve(app, ENDPOINTS.adminExportsDownload, { exposeHeadRoute: false }, async (request, _body, reply) => {
    const { token } = request.params as { token: string };
    const { lang } = request.query as { lang?: string };
    const locale = toLocale(lang ?? request.headers['accept-language']?.slice(0, 2));
    let opened: Awaited<ReturnType<typeof openExport>>;
    try {
      opened = await openExport(app.deps, token);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return reply
        .code(410)
        .header('content-type', 'text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(translate(locale, error.messageKey));
    }
    opened.body.on('error', (error) => request.log.error({ err: error }, 'export stopped by a fault'));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${opened.fileName}"`)
      .header('cache-control', 'no-store')
      .send(opened.body);
  });
}
