import { ADMIN_API, CatalogExchangeSchema } from '@elex/contract';
import { apiCall } from '../../../shared/api/api-client';

/** The file as base64, without the `data:...;base64,` prefix a FileReader adds. */
function readAsBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * `/elex/admin/uploadLogo {platId, updatedAt, fileName, content}`: the server reads the type from the
 * content, checks SVGs and makes the file the partner's logo, if the partner is still the version the
 * page shows (`updatedAt`; else `logoEditedMeanwhile`).
 */
export async function uploadLogo(exchange: { platId: number; updatedAt: string }, file: File) {
  const content = await readAsBase64(file);
  return apiCall(
    ADMIN_API.adminUploadLogo,
    { platId: exchange.platId, updatedAt: exchange.updatedAt, fileName: file.name, content },
    { schema: CatalogExchangeSchema },
  );
}
