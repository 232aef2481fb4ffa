import { ADMIN_API, type CreateExportRequest, ExportLinkSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** `/elex/admin/exports/create`: a one-time download link that lives a minute. */
export const createExport = (request: CreateExportRequest) =>
  apiCall(ADMIN_API.adminExportsCreate, request, { schema: ExportLinkSchema });

/**
 * Hands the link to the browser's download manager: the server answers it as an attachment, so the
 * page stays and the file streams to disk. `lang` words a refusal (an expired link) in the console's
 * language.
 */
export function startDownload(url: string, lang: string) {
  const anchor = document.createElement('a');
  anchor.href = `${url}?lang=${encodeURIComponent(lang)}`;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
