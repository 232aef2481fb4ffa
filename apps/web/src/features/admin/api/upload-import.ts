import { ADMIN_API, ImportResultSchema, type UploadImportRequest } from '@elex/contract';
import { apiUpload } from '../../../shared/api/api-client';

/**
 * `/elex/admin/uploadImport {kind, platId, fileName, csv}` with the upload's progress; the answer is
 * the server's processing result (imported, or every bad line and nothing imported).
 */
export const uploadImport = (
  request: UploadImportRequest,
  onProgress: (sent: number, total: number) => void,
  signal?: AbortSignal,
) =>
  apiUpload(ADMIN_API.adminUploadImport, request, {
    schema: ImportResultSchema,
    onUploadProgress: onProgress,
    ...(signal ? { signal } : {}),
  });
