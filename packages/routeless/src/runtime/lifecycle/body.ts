/**
 * A request's body, read within its size limit and decoded by content type (JSON, urlencoded and multipart forms,
 * raw bytes for the types a handler accepts). Every failure is an `HttpError` (400, 413, 415), never a crash.
 *
 * The common body (a declared length, taken whole) costs one wait: the adapter's or the runtime's own read, and the
 * decoding in its continuation.
 * @module
 */
import { BODY_KINDS, type BodyKind, type Kwargs, type KwargValue } from '../base/controller.ts'
import { HttpError, isHttpError } from '../base/errors.ts'
import { checkPartCount, DEFAULT_PART_LIMIT } from './multipart.ts'
import { addEntries, newKwargs, urlencoded } from './query.ts'
import { fromRequest, type IncomingRequest, type WholeBody } from './request.ts'

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

/** Decoders are stateless when not streaming: one serves every request (marked pure: a Worker reading no body keeps none). */
const UTF8 = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true })
const LENIENT = /* @__PURE__ */ new TextDecoder('utf-8')

/**
 * `bytes` as UTF-8 text, throwing on an invalid sequence as the fatal decoder does. The lenient decoder is the fast
 * one (Deno's fatal one costs four times as much); it marks every invalid sequence with U+FFFD, so only a text that
 * has one is decoded again, strictly: a valid body may carry U+FFFD itself. Text that is not UTF-8 is a 400 naming the
 * body's kind (`Malformed JSON body: not UTF-8`).
 */
function utf8(bytes: Uint8Array, kind: 'JSON' | 'form'): string {
  const text = LENIENT.decode(bytes)
  if (!text.includes('\uFFFD')) return text
  try {
    return UTF8.decode(bytes)
  } catch {
    throw new HttpError(400, `Malformed ${kind} body: not UTF-8`)
  }
}

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

function parseJson(bytes: Uint8Array): unknown {
  const text = utf8(bytes, 'JSON')
  try {
    // JSON.parse reads a number beyond a double (`1e999`, 309 digits) as ±Infinity, which no handler can answer with
    // and no JSON can carry back. A text that may hold one is read with a reviver that refuses it.
    return mayOverflow(text) ? JSON.parse(text, finite) : JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`)
  }
}

/**
 * Whether a JSON text may hold a number beyond a double. Its value is ≥ 10³⁰⁸, so its integer digits and its exponent
 * add up to 309 or more: it has an exponent of three digits or more (`1e999`, `1.8E+308`, `5e0400`), or, with an
 * exponent of two digits at most, an integer part of 210 digits or more (`1` and 250 zeros `e99`, or 309 digits). A
 * text with neither holds none. (The test before, `\d[eE]\+?\d` or 309 digits, also sent every short exponent such as
 * `2e5` to the reviver, and its scan cost 4.4k instructions in the echo benchmark's profile where this one costs 2.6k.)
 */
export function mayOverflow(text: string): boolean {
  return LONG_EXPONENT.test(text) || hasDigitRun(text, 210)
}

/** A digit, `e` or `E`, then three digits or `+` and two: a false alarm on `1e+99` only costs the reviver. */
const LONG_EXPONENT = /\d[eE][+\d]\d\d/

/**
 * Whether `text` holds `length` digits in a row. Such a run covers one index of any `length` consecutive ones, so only
 * every `length`-th character is looked at, and the run measured where it is a digit: a few probes for a 1 KiB body
 * where a regular expression tried every position (7k instructions).
 */
function hasDigitRun(text: string, length: number): boolean {
  const n = text.length
  for (let k = length - 1; k < n; k += length) {
    if (!isDigit(text.charCodeAt(k))) continue
    let start = k
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--
    let end = k + 1
    while (end < n && isDigit(text.charCodeAt(end))) end++
    if (end - start >= length) return true
  }
  return false
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

function finite(key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error(`the number at ${key ? JSON.stringify(key) : 'the top'} is beyond a double's range`)
  return value
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

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body is larger than the limit of ${limit} bytes`)
}

/** A body's chunks, read one at a time, whatever the adapter gives: a ReadableStream or an async iterable. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>
  cancel(): void
}

function chunksOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): ChunkReader {
  // Any stream with a reader, not only this realm's ReadableStream (@whatwg-node brings its own).
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader()
    return { read: () => reader.read(), cancel: () => void reader.cancel().catch(() => {}) }
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  return {
    read: () => iterator.next() as ReturnType<ChunkReader['read']>,
    cancel: () => void iterator.return?.()?.catch(() => {}),
  }
}

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export function readBytes(
  request: Request | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  try {
    const body = request instanceof Request ? request.body : request
    if (body === null) return Promise.resolve(new Uint8Array(0))
    return bytesOf(body!, limit).then((bytes) => {
      if (bytes.byteLength > limit) throw tooLarge(limit)
      return bytes
    }, rejectUnreadable)
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * The body's bytes: taken whole when the adapter can (its promise is the answer: one wait; the caller checks the
 * limit), else chunk by chunk within `limit`.
 */
function bytesOf(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const whole = typeof (body as Partial<WholeBody>).whole === 'function' ? (body as WholeBody).whole(limit) : undefined
  return whole !== undefined ? whole : readChunks(body, limit)
}

function rejectUnreadable(error: unknown): never {
  throw unreadable(error)
}

/** A failure of the read itself: a 400 unless it is one of ours already (413). */
function unreadable(error: unknown): HttpError {
  return isHttpError(error) ? error : new HttpError(400, 'The request body could not be read', { cause: error })
}

/** `readBytes` chunk by chunk. */
async function readChunks(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const reader = chunksOf(body)
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      // The rest is the server's to drop (its lingering close), after the 413 is out.
      reader.cancel()
      throw tooLarge(limit)
    }
    chunks.push(value)
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
