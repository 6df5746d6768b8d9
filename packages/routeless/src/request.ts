/**
 * Request helpers: query → keyword arguments, and body decoding by content type with the size limit enforced while
 * reading. Every failure is an `HttpError` (400, 413, 415), never a crash.
 * @module
 */
import type { Kwargs, KwargValue } from './controller.ts'
import { HttpError, isHttpError } from './errors.ts'

/** Query parameters as keyword arguments: repeated keys become arrays, `ids[]` is an alias of `ids` (always an array). */
export function getQuery(url: URL): Kwargs {
  const out: Kwargs = Object.create(null)
  if (url.search.length <= 1) return out
  addEntries(out, url.searchParams)
  return out
}

function addEntries(out: Kwargs, entries: Iterable<[string, string | File]>): void {
  for (const [rawKey, value] of entries) {
    const list = rawKey.endsWith('[]')
    const key = list ? rawKey.slice(0, -2) : rawKey
    if (key === '__proto__') continue
    const prev = out[key]
    if (prev === undefined) out[key] = list ? [value as string] : value
    else if (Array.isArray(prev)) (prev as unknown[]).push(value)
    else out[key] = [prev, value] as KwargValue
  }
}

export interface BodyOptions {
  /** Largest body accepted, in bytes. */
  limit: number
  /** Extra content types taken as raw bytes. */
  accepts?: readonly string[]
}

export interface ParsedBody {
  /** Decoded value: JSON, form fields object, raw bytes, or undefined when there is no body. */
  body: unknown
  /** Fields to merge into the keyword arguments (a JSON object or a form). */
  fields: Kwargs | undefined
}

const NO_BODY: ParsedBody = { body: undefined, fields: undefined }

/** Reads and decodes the request body. */
export async function readBody(request: Request, options: BodyOptions): Promise<ParsedBody> {
  if (request.body === null) return NO_BODY
  const length = request.headers.get('content-length')
  if (length !== null) {
    if (!/^\d+$/.test(length)) throw new HttpError(400, 'Invalid Content-Length header')
    if (Number(length) > options.limit) {
      await discard(request.body.getReader())
      throw tooLarge(options.limit)
    }
    if (length === '0') return NO_BODY
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const kind = bodyKind(type, options.accepts)
  if (kind === undefined) {
    const bytes = await readBytes(request, options.limit)
    if (bytes.byteLength === 0) return NO_BODY
    throw new HttpError(415, type ? `Unsupported Content-Type: ${type}` : 'A request body needs a Content-Type header', {
      headers: { 'Accept-Post': 'application/json, application/x-www-form-urlencoded, multipart/form-data' },
    })
  }
  const bytes = await readBytes(request, options.limit)
  if (bytes.byteLength === 0) return NO_BODY
  switch (kind) {
    case 'json': {
      let value: unknown
      try {
        value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
      } catch {
        throw new HttpError(400, 'Malformed JSON body')
      }
      const fields = isPlainObject(value) ? toKwargs(value) : undefined
      return { body: value, fields }
    }
    case 'form': {
      let text: string
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
      } catch {
        throw new HttpError(400, 'Malformed form body: not UTF-8')
      }
      const fields: Kwargs = Object.create(null)
      addEntries(fields, new URLSearchParams(text))
      return { body: fields, fields }
    }
    case 'multipart': {
      let form: FormData
      try {
        form = await new Response(bytes as BodyInit, { headers: { 'content-type': request.headers.get('content-type')! } }).formData()
      } catch {
        throw new HttpError(400, 'Malformed multipart body')
      }
      const fields: Kwargs = Object.create(null)
      addEntries(fields, form as unknown as Iterable<[string, string | File]>)
      return { body: fields, fields }
    }
    default:
      return { body: bytes, fields: undefined }
  }
}

function bodyKind(type: string, accepts: readonly string[] | undefined): 'json' | 'form' | 'multipart' | 'raw' | undefined {
  if (accepts && (accepts.includes(type) || accepts.includes('*/*') || accepts.includes(type.split('/')[0] + '/*'))) return 'raw'
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) return 'json'
  if (type === 'application/x-www-form-urlencoded') return 'form'
  if (type === 'multipart/form-data') return 'multipart'
  return undefined
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${limit} bytes`)
}

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export async function readBytes(request: Request, limit: number): Promise<Uint8Array> {
  const reader = request.body!.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > limit) {
        await discard(reader)
        throw tooLarge(limit)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (isHttpError(error)) throw error
    throw new HttpError(400, 'The request body could not be read', { cause: error })
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

/** Most an over-limit body is read (and dropped) so the client sees the 413 instead of a reset connection. */
const DISCARD_LIMIT = 1024 * 1024

/** Reads and drops up to DISCARD_LIMIT more bytes, then cancels: the body is never buffered. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let dropped = 0
  try {
    while (dropped < DISCARD_LIMIT) {
      const { done, value } = await reader.read()
      if (done) return
      dropped += value.byteLength
    }
  } catch {
    return
  }
  reader.cancel().catch(() => {})
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toKwargs(value: Record<string, unknown>): Kwargs {
  const out: Kwargs = Object.create(null)
  for (const key of Object.keys(value)) if (key !== '__proto__') out[key] = value[key] as KwargValue
  return out
}
