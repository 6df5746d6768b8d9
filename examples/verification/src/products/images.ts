/** The image parts of the biometric and document products: their types, and the checks of their bytes. */
import type { FilePart } from '../forms/field-types.ts'
import { readImage, type ImageInfo } from '../forms/images.ts'
import { required } from '../http/errors.ts'

/** A selfie with 6 to 8 liveness frames. */
export interface SelfieParts {
  /** JPEG, checked by content */
  selfie_image: FilePart
  /**
   * 6 to 8 repeated parts (JPEG, checked by content)
   * @minItems 6
   * @maxItems 8
   * @errorMessage Field 'liveness_images' must contain between 6 and 8 images.
   */
  liveness_images: FilePart[]
}

/**
 * The `File` of a file part. The types let only objects through, and a multipart body holds no object but a file;
 * this says so to TypeScript and checks it once more.
 */
export function fileOf(part: FilePart, field: string): File {
  if (!((part as unknown) instanceof File)) throw required(field)
  return part as unknown as File
}

export function readSelfie(part: FilePart, maxBytes: number, field = 'selfie_image'): Promise<ImageInfo> {
  return readImage(fileOf(part, field), field, { formats: ['jpeg'], maxBytes })
}

/** The liveness frames (JPEG); their count is the type's. */
export function readLiveness(parts: FilePart[] | undefined, maxBytes: number): Promise<ImageInfo[]> {
  return Promise.all(
    (parts ?? []).map((p) =>
      readImage(fileOf(p, 'liveness_images'), 'liveness_images', { formats: ['jpeg'], maxBytes }),
    ),
  )
}

/** A document image (front, back or visa): JPEG or PNG. */
export function readDocumentImage(
  part: FilePart,
  field: 'document' | 'document_back' | 'visa',
  maxBytes: number,
): Promise<ImageInfo> {
  const message = field === 'visa' ? 'Visa image must be JPEG or PNG.' : 'Document image must be JPEG or PNG.'
  return readImage(fileOf(part, field), field, { formats: ['jpeg', 'png'], maxBytes, message })
}
