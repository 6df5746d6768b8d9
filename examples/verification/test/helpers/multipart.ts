/**
 * multipart/form-data exactly as the v3 SDKs write it: JSON parts labelled `application/json` without a filename,
 * text parts plain, image parts with a filename and an image content type, repeated parts for `liveness_images`.
 */
import { randomBytes } from 'node:crypto'

export type Part =
  | { name: string; value: string }
  | { name: string; json: unknown }
  | { name: string; file: Uint8Array; filename?: string; type?: string }

export function encodeMultipart(parts: Part[]): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----v3sdk${randomBytes(12).toString('hex')}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`
    let data: Buffer
    if ('file' in part) {
      head += `; filename="${part.filename ?? `${part.name}.jpg`}"\r\nContent-Type: ${part.type ?? 'image/jpeg'}`
      data = Buffer.from(part.file)
    } else if ('json' in part) {
      head += '\r\nContent-Type: application/json'
      data = Buffer.from(JSON.stringify(part.json))
    } else data = Buffer.from(part.value)
    chunks.push(Buffer.from(`${head}\r\n\r\n`), data, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const joined = Buffer.concat(chunks)
  const body = new Uint8Array(joined.length)
  body.set(joined)
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

/** Fields as an object: strings are text parts, objects/arrays JSON parts, Uint8Array(s) image parts. */
export function partsOf(fields: Record<string, unknown>): Part[] {
  const parts: Part[] = []
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue
    if (value instanceof Uint8Array) parts.push({ name, file: value, type: sniffType(value) })
    else if (Array.isArray(value) && value.every((v) => v instanceof Uint8Array)) {
      value.forEach((file, i) =>
        parts.push({
          name,
          file: file as Uint8Array,
          filename: `${name.replace(/_images$/, '')}${i + 1}.jpg`,
          type: sniffType(file as Uint8Array),
        }),
      )
    } else if (typeof value === 'object') parts.push({ name, json: value })
    else parts.push({ name, value: String(value) })
  }
  return parts
}

function sniffType(bytes: Uint8Array): string {
  return bytes[0] === 0x89 ? 'image/png' : 'image/jpeg'
}
