/**
 * A request's body, read within its size limit and decoded by content type (JSON, urlencoded and multipart forms,
 * raw bytes for the types a handler accepts). Every failure is an `HttpError` (400, 413, 415), never a crash.
 *
 * The common body (a declared length, taken whole) costs one wait: the adapter's or the runtime's own read, and the
 * decoding in its continuation.
 * @module
 */
import { BODY_KINDS, type BodyKind, type Kwargs, type KwargValue } from '../base/controller.ts'
import { HttpError } from '../base/errors.ts'
import { checkPartCount, DEFAULT_PART_LIMIT } from './multipart.ts'
import { addEntries, newKwargs, urlencoded } from './query.ts'
import { fromRequest, type IncomingRequest } from './request.ts'
import { bytesOf, chunksOf, tooLarge, unreadable } from './body-bytes.ts'
import { parseJson, utf8 } from './body-text.ts'

export interface BodyOptions {
  /** Largest body accepted, in bytes. */
  limit: number
  /** Most parts a multipart body may have (default 1 000, `DEFAULT_PART_LIMIT`): more is a 413. */
  parts?: number
  /** Extra content types taken as raw bytes. */
  accepts?: readonly string[]
  /** The decoded kinds taken (default all three); another is a 415 that lists these. */
  consumes?: readonly BodyKind[]
}

export const MEDIA_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
}

export interface ParsedBody {
  /** Decoded value: JSON, form fields object, raw bytes, or undefined when there is no body. */
  body: unknown
  /** Fields to merge into the keyword arguments (a JSON object or a form). */
  fields: Kwargs | undefined
  /** The body was JSON: its values have types of their own, not to be read from strings. */
  json?: boolean
}

const NO_BODY: ParsedBody = { body: undefined, fields: undefined }

/**
 * Whether a Content-Length value is one: digits only, at least one. (A loop over its few characters: `/^\d+$/.test`
 * costs ~250 instructions, the call into the expression's code included.)
 */
export function isContentLength(value: string): boolean {
  const n = value.length
  if (n === 0) return false
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  return true
}

/** How a body of some media type is decoded: `raw` for the types the handler takes as bytes. */
type Decoding = BodyKind | 'raw' | undefined

/**
 * Reads and decodes the request body. What the headers decide (a malformed or too large Content-Length) fails before
 * a byte is read; an unsupported type once the body turns out not to be empty.
 *
 * Given `next` and `failed`, it is `readBody(request, options).then(next, failed)` without the promise between (a
 * handler's code reads so, `compiler/codegen/stages.ts`): the body goes to `next` in the read's own continuation, or
 * at once when there is none, and every failure, a throw of the headers' checks included, to `failed`.
 */
export function readBody(request: Request | IncomingRequest, options: BodyOptions): Promise<ParsedBody>
export function readBody<T>(
  request: Request | IncomingRequest,
  options: BodyOptions,
  next: (parsed: ParsedBody) => T | Promise<T>,
  failed: (error: unknown) => T | Promise<T>,
): T | Promise<T>
export function readBody<T>(
  request: Request | IncomingRequest,
  options: BodyOptions,
  next?: (parsed: ParsedBody) => T | Promise<T>,
  failed?: (error: unknown) => T | Promise<T>,
): T | Promise<T> | Promise<ParsedBody> {
  if (next === undefined || failed === undefined) {
    try {
      return Promise.resolve(readBody<ParsedBody>(request, options, same, rethrow))
    } catch (error) {
      return Promise.reject<ParsedBody>(error)
    }
  }
  let source: IncomingRequest
  let body: ReturnType<IncomingRequest['body']>
  let kind: Decoding
  let type = ''
  let empty = false
  try {
    // (The adapters' own request first: `instanceof` looks `Request` up on the global object.)
    source =
      typeof (request as IncomingRequest).header === 'function'
        ? (request as IncomingRequest)
        : fromRequest(request as Request)
    body = source.body()
    const length = body === null ? '0' : source.header('content-length')
    if (length !== null && length !== '0') {
      if (!isContentLength(length)) throw new HttpError(400, 'Invalid Content-Length header')
      if (Number(length) > options.limit) {
        chunksOf(body!).cancel() // left to the server's lingering close, after the 413
        throw tooLarge(options.limit)
      }
    }
    empty = length === '0'
    if (!empty) {
      type = mediaType(source.header('content-type') ?? '')
      kind = bodyKind(type, options.accepts)
      if (kind !== undefined && kind !== 'raw' && options.consumes && !options.consumes.includes(kind)) kind = undefined
    }
  } catch (error) {
    return failed(error)
  }
  if (empty) return next(NO_BODY) // (outside the try: what `next` throws is its own)
  const limit = options.limit
  return bytesOf(body!, limit).then(
    (bytes) => {
      let parsed: ParsedBody | Promise<ParsedBody>
      try {
        if (bytes.byteLength > limit) throw tooLarge(limit)
        parsed = bytes.byteLength === 0 ? NO_BODY : decode(bytes, kind, type, source, options)
      } catch (error) {
        return failed(error)
      }
      return parsed instanceof Promise ? parsed.then(next, failed) : next(parsed)
    },
    (error) => failed(unreadable(error)),
  )
}

function same<T>(value: T): T {
  return value
}

function rethrow(error: unknown): never {
  throw error
}

function decode(
  bytes: Uint8Array,
  kind: Decoding,
  type: string,
  source: IncomingRequest,
  options: BodyOptions,
): ParsedBody | Promise<ParsedBody> {
  switch (kind) {
    case 'json': {
      const value = parseJson(bytes)
      return { body: value, fields: isPlainObject(value) ? toKwargs(value) : undefined, json: true }
    }
    case 'form': {
      const fields = newKwargs()
      addEntries(fields, urlencoded(utf8(bytes, 'form')))
      return { body: fields, fields }
    }
    case 'multipart':
      return decodeMultipart(bytes, source.header('content-type')!, options.parts ?? DEFAULT_PART_LIMIT)
    case 'raw':
      return { body: bytes, fields: undefined }
    default:
      throw unsupported(type, options.consumes)
  }
}

async function decodeMultipart(bytes: Uint8Array, contentType: string, parts: number): Promise<ParsedBody> {
  const boundary = checkPartCount(bytes, contentType, parts)
  let form: FormData
  try {
    // The parser is given the boundary that was counted: it cannot read the header another way.
    const headers = { 'content-type': `multipart/form-data; boundary="${boundary}"` }
    form = await new Response(bytes as BodyInit, { headers }).formData()
  } catch {
    throw new HttpError(400, 'Malformed multipart body')
  }
  const fields = newKwargs()
  addEntries(fields, form as unknown as Iterable<[string, string | File]>)
  return { body: fields, fields }
}

/** The 415 for a body of a type the handler does not take, naming the types it does. */
function unsupported(type: string, consumes: readonly BodyKind[] | undefined): HttpError {
  const taken = (consumes ?? BODY_KINDS).map((k) => MEDIA_TYPES[k]).join(', ')
  const only = consumes?.length === 1 ? `: send ${taken}` : ''
  return new HttpError(
    415,
    type ? `Unsupported Content-Type: ${type}${only}` : `A request body needs a Content-Type header${only}`,
    { headers: { 'Accept-Post': taken, 'Accept-Patch': taken } },
  )
}

/** A Content-Type's media type, lower case, without its parameters. */
function mediaType(value: string): string {
  // The common one as it is (the runtime's `toLowerCase` costs ~400 instructions).
  if (value === 'application/json') return value
  const semicolon = value.indexOf(';')
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).trim()
  return UPPER.test(type) ? type.toLowerCase() : type
}

const UPPER = /[A-Z]/

function bodyKind(type: string, accepts: readonly string[] | undefined): Decoding {
  if (accepts && (accepts.includes(type) || accepts.includes('*/*') || accepts.includes(`${type.split('/')[0]}/*`)))
    return 'raw'
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) return 'json'
  if (type === 'application/x-www-form-urlencoded') return 'form'
  if (type === 'multipart/form-data') return 'multipart'
  return undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toKwargs(value: Record<string, unknown>): Kwargs {
  // One `Object.assign` copies the members (a loop of keyed stores cost ~0.9k instructions more on five); a member
  // named `__proto__` is left out.
  if (!Object.hasOwn(value, '__proto__')) return Object.assign(newKwargs(), value) as Kwargs
  const out = newKwargs()
  for (const key of Object.keys(value)) if (key !== '__proto__') out[key] = value[key] as KwargValue
  return out
}
