/** Image parts: bounded in size and checked to really be JPEG or PNG images (magic bytes and header structure). */
import { createHash } from 'node:crypto'
import { apiError } from '../http/errors.ts'

export type ImageFormat = 'jpeg' | 'png'

export interface ImageInfo {
  field: string
  format: ImageFormat
  bytes: number
  width: number
  height: number
  sha256: string
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Format and pixel size of a JPEG or PNG, or undefined when the bytes are neither. */
export function sniffImage(b: Uint8Array): { format: ImageFormat; width: number; height: number } | undefined {
  if (
    b.length > 24 &&
    PNG_SIGNATURE.every((v, i) => b[i] === v) &&
    String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!) === 'IHDR'
  ) {
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength)
    const width = view.getUint32(16)
    const height = view.getUint32(20)
    return width > 0 && height > 0 ? { format: 'png', width, height } : undefined
  }
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpegSize(b)
  return undefined
}

/** Walks the JPEG segments up to the first start-of-frame marker, which holds the size. */
function jpegSize(b: Uint8Array): { format: 'jpeg'; width: number; height: number } | undefined {
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined
    const marker = b[i + 1]!
    if (marker === 0xff) {
      i++
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2
      continue
    }
    if (marker === 0xda || marker === 0xd9) return undefined
    const length = (b[i + 2]! << 8) | b[i + 3]!
    if (length < 2) return undefined
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isFrame) {
      const height = (b[i + 5]! << 8) | b[i + 6]!
      const width = (b[i + 7]! << 8) | b[i + 8]!
      return width > 0 && height > 0 ? { format: 'jpeg', width, height } : undefined
    }
    i += 2 + length
  }
  return undefined
}

export interface ImageRule {
  formats: readonly ImageFormat[]
  maxBytes: number
  /** The 400 message when the part is not an accepted image. */
  message?: string
}

/** Reads, bounds and checks one image part. */
export async function readImage(file: File, field: string, rule: ImageRule): Promise<ImageInfo> {
  if (file.size > rule.maxBytes) throw apiError(413, `${field} is too large.`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const sniffed = sniffImage(bytes)
  if (!sniffed || !rule.formats.includes(sniffed.format)) {
    throw apiError(
      400,
      rule.message ?? `Field '${field}' must be a ${rule.formats.map((f) => f.toUpperCase()).join(' or ')} image.`,
    )
  }
  return { field, ...sniffed, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') }
}
