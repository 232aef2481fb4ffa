import { type MessageKey, SUPPORT, type SupportImage, type SupportImageType } from '@elex/contract';

/** A screenshot the member picked: what the preview shows and what the request sends. */
export interface PickedImage {
  contentType: SupportImageType;
  /** `data:<type>;base64,...`, read once: the preview shows it, the request sends its base64 part. */
  dataUrl: string;
  name: string;
}

const isImageType = (type: string): type is SupportImageType =>
  (SUPPORT.imageTypes as readonly string[]).includes(type);

/** Why the server would refuse this file (checked before reading it), or null. */
export function imageProblem(file: File): MessageKey | null {
  if (!isImageType(file.type)) return 'supportImageType';
  if (file.size > SUPPORT.maxImageBytes) return 'supportImageTooLarge';
  if (file.size === 0) return 'supportImageType';
  return null;
}

/** Reads a file that passed imageProblem. */
export function readImage(file: File): Promise<PickedImage> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const contentType = file.type;
      if (typeof reader.result !== 'string' || !isImageType(contentType)) {
        reject(new Error('The file could not be read as an image'));
        return;
      }
      resolve({ contentType, dataUrl: reader.result, name: file.name });
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** The image as the calls take it: base64 in the JSON body (every call is JSON). */
export const wireImage = (image: PickedImage): SupportImage => ({
  contentType: image.contentType,
  data: image.dataUrl.slice(image.dataUrl.indexOf(',') + 1),
});
