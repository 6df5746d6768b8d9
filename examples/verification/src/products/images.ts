/** The image parts of the biometric and document products, with their count and format rules. */
import { file, files } from '../forms/fields.ts'
import { readImage, type ImageInfo } from '../forms/images.ts'
import type { Form } from '../forms/multipart.ts'
import { apiError, required } from '../http/errors.ts'

export async function readSelfie(form: Form, maxBytes: number, field = 'selfie_image'): Promise<ImageInfo> {
  const part = file(form, field)
  if (!part) throw required(field)
  return readImage(part, field, { formats: ['jpeg'], maxBytes })
}

/** 6 to 8 repeated `liveness_images` parts (JPEG); with `optional`, none at all is fine too. */
export async function readLiveness(form: Form, maxBytes: number, options: { optional?: boolean } = {}): Promise<ImageInfo[]> {
  const parts = files(form, 'liveness_images')
  if (parts.length === 0 && options.optional) return []
  if (parts.length === 0) throw required('liveness_images')
  if (parts.length < 6 || parts.length > 8) throw apiError(400, "Field 'liveness_images' must contain between 6 and 8 images.")
  return Promise.all(parts.map((p) => readImage(p, 'liveness_images', { formats: ['jpeg'], maxBytes })))
}

/** A document image (front, back or visa): JPEG or PNG. */
export async function readDocumentImage(form: Form, field: string, maxBytes: number, options: { required: boolean }): Promise<ImageInfo | undefined> {
  const part = file(form, field)
  if (!part) {
    if (options.required) throw required(field)
    return undefined
  }
  const message = field === 'visa' ? 'Visa image must be JPEG or PNG.' : 'Document image must be JPEG or PNG.'
  return readImage(part, field, { formats: ['jpeg', 'png'], maxBytes, message })
}
