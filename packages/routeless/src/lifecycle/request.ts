/**
 * The request as the core reads it (`IncomingRequest`), and its body decoded by content type with the size limit
 * enforced while reading. Every failure is an `HttpError` (400, 413, 415), never a crash. The query: `query.ts`.
 * @module
 */
import type { Kwargs, KwargValue } from '../app/controller.ts'
import { addEntries } from './query.ts'
import { checkPartCount, DEFAULT_PART_LIMIT } from './multipart.ts'

export { getQuery, parseQuery } from './query.ts'
import { HttpError, isHttpError } from '../app/errors.ts'

/**
 * A request as an adapter hands it to `Application.handle`: what routing needs up front, the rest on demand, so
 * that answering it does not require a Fetch `Request` (routeless/uws builds one only when something asks).
 */
export interface IncomingRequest {
  /** The method token as sent (upper case). */
  readonly method: string
  /** Path and query (`/users/7?fields=name`), as `normalizeTarget` (server/shared/request-target.ts) leaves a raw target. */
  readonly target: string
  /** A header's value by lower-case name, or null. */
  header(name: string): string | null
  /** The body as it arrives, or null when the request has none. */
  body(): ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null
  /** Whether the request declares a body (Transfer-Encoding, or a Content-Length other than 0), where the adapter knows. */
  hasBody?(): boolean
  /** The Fetch `Request`, built on first use. */
  request(): Request
  /** The absolute URL, built on first use. */
  url(): URL
}

/**
 * A Fetch `Request` as an `IncomingRequest`. An adapter that holds the raw body (node:http's IncomingMessage) may
 * give it as `body`: the core then reads it directly instead of through the Request's stream.
 */
/**
 * The declared bodies of GET requests whose Fetch `Request` an adapter built: Fetch lets a GET carry none, so the
 * adapter leaves it here, and a `Request` handed to `app.fetch` (by a wrapper of the app's fetch, for instance) still
 * has its body read.
 */
const getBodies = new WeakMap<Request, IncomingRequest>()

/** For adapters: `request` (a GET they built) has its declared body in `source.body()`. */
export function attachGetBody(request: Request, source: IncomingRequest): void {
  getBodies.set(request, source)
}

export function fromRequest(request: Request, body?: AsyncIterable<Uint8Array>): IncomingRequest {
  return new FetchIncoming(request, body)
}

class FetchIncoming implements IncomingRequest {
  readonly method: string
  readonly target: string
  private readonly req: Request
  private readonly raw: AsyncIterable<Uint8Array> | undefined
  private parsed: URL | undefined
  /** The Request's headers, read once (Bun makes its `Headers` when first asked). */
  private fields: Headers | undefined

  constructor(request: Request, body?: AsyncIterable<Uint8Array>) {
    this.req = request
    this.raw = body
    this.method = request.method
    this.target = targetOf(request.url)
    this.parsed = undefined
    this.fields = undefined
  }

  header(name: string): string | null {
    return (this.fields ??= this.req.headers).get(name)
  }

  /** A GET's body is only ever the one an adapter attached (Fetch lets a GET carry none); other methods say by header. */
  hasBody(): boolean {
    if (this.raw === undefined && this.method === 'GET' && !getBodies.has(this.req)) return false
    const headers = (this.fields ??= this.req.headers)
    if (headers.has('transfer-encoding')) return true
    const length = headers.get('content-length')
    return length !== null && length !== '0'
  }

  body(): ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null {
    if (this.raw !== undefined) return this.raw
    if (this.method === 'GET') return getBodies.get(this.req)?.body() ?? null
    // A declared length is taken whole by the runtime's own reader (Bun's and Deno's are native): one wait, and no
    // stream made (Bun makes one when `body` is read).
    return (this.fields ??= this.req.headers).has('content-length') ? new FetchBody(this.req) : this.req.body
  }

  request(): Request {
    return this.req
  }

  url(): URL {
    return (this.parsed ??= new URL(this.req.url))
  }
}

/** A Request's body of declared length: whole through `bytes()` (or `arrayBuffer()`), or its stream for a reader. */
class FetchBody implements WholeBody {
  private readonly req: Request
  constructor(request: Request) {
    this.req = request
  }

  whole(limit: number): Promise<Uint8Array> | undefined {
    const request = this.req
    if (request.bodyUsed) return undefined
    // `bytes()` where the runtime has it (Bun, Deno, workerd): no ArrayBuffer to wrap.
    const read =
      typeof request.bytes === 'function'
        ? request.bytes()
        : request.arrayBuffer().then((buffer) => new Uint8Array(buffer))
    return read.then((bytes) => {
      if (bytes.byteLength > limit) throw tooLarge(limit)
      return bytes
    })
  }

  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    return (this.req.body ?? new Response(null).body!).getReader()
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return chunksIterator(this.req)
  }
}

/** The chunks of a Request's body (none when it has none). */
async function* chunksIterator(request: Request): AsyncGenerator<Uint8Array> {
  if (request.body === null) return
  yield* request.body as unknown as AsyncIterable<Uint8Array>
}

/** `http://host/a/b?c#d` → `/a/b?c`. A Request's URL is already normalised: no need to parse it again. */
function targetOf(href: string): string {
  const from = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1
  const slash = from < 0 ? -1 : href.indexOf('/', from)
  if (slash < 0) {
    const url = new URL(href)
    return url.pathname + url.search
  }
  const hash = href.indexOf('#', slash)
  return hash < 0 ? href.slice(slash) : href.slice(slash, hash)
}

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

/** The bodies routeless decodes: JSON, urlencoded forms, multipart forms. */
export type BodyKind = 'json' | 'form' | 'multipart'

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

/** Decoders are stateless when not streaming: one serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true })
const LENIENT = new TextDecoder('utf-8')

/**
 * `bytes` as UTF-8 text, throwing on an invalid sequence as the fatal decoder does. The lenient decoder is the fast
 * one (Deno's fatal one costs four times as much); it marks every invalid sequence with U+FFFD, so only a text that
 * has one is decoded again, strictly: a valid body may carry U+FFFD itself.
 */
function utf8(bytes: Uint8Array): string {
  const text = LENIENT.decode(bytes)
  return text.includes('\uFFFD') ? UTF8.decode(bytes) : text
}

/** Reads and decodes the request body. */
export async function readBody(request: Request | IncomingRequest, options: BodyOptions): Promise<ParsedBody> {
  const source = request instanceof Request ? fromRequest(request) : request
  const body = source.body()
  if (body === null) return NO_BODY
  const length = source.header('content-length')
  if (length !== null) {
    if (!/^\d+$/.test(length)) throw new HttpError(400, 'Invalid Content-Length header')
    if (Number(length) > options.limit) {
      chunksOf(body).cancel() // left to the server's lingering close, after the 413
      throw tooLarge(options.limit)
    }
    if (length === '0') return NO_BODY
  }
  const type = mediaType(source.header('content-type') ?? '')
  let kind = bodyKind(type, options.accepts)
  if (kind !== undefined && kind !== 'raw' && options.consumes && !options.consumes.includes(kind)) kind = undefined
  if (kind === undefined) {
    const bytes = await readBytes(body, options.limit)
    if (bytes.byteLength === 0) return NO_BODY
    const taken = (options.consumes ?? (['json', 'form', 'multipart'] as const)).map((k) => MEDIA_TYPES[k]).join(', ')
    const only = options.consumes?.length === 1 ? `: send ${taken}` : ''
    throw new HttpError(
      415,
      type ? `Unsupported Content-Type: ${type}${only}` : `A request body needs a Content-Type header${only}`,
      {
        headers: { 'Accept-Post': taken, 'Accept-Patch': taken },
      },
    )
  }
  const bytes = await readBytes(body, options.limit)
  if (bytes.byteLength === 0) return NO_BODY
  switch (kind) {
    case 'json': {
      let text: string
      try {
        text = utf8(bytes)
      } catch {
        throw new HttpError(400, 'Malformed JSON body: not UTF-8')
      }
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`)
      }
      const fields = isPlainObject(value) ? toKwargs(value) : undefined
      return { body: value, fields, json: true }
    }
    case 'form': {
      let text: string
      try {
        text = utf8(bytes)
      } catch {
        throw new HttpError(400, 'Malformed form body: not UTF-8')
      }
      const fields: Kwargs = Object.create(null)
      addEntries(fields, new URLSearchParams(text))
      return { body: fields, fields }
    }
    case 'multipart': {
      const contentType = source.header('content-type')!
      checkPartCount(bytes, contentType, options.parts ?? DEFAULT_PART_LIMIT)
      let form: FormData
      try {
        form = await new Response(bytes as BodyInit, {
          headers: { 'content-type': contentType },
        }).formData()
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

/** A Content-Type's media type, lower case, without its parameters. */
function mediaType(value: string): string {
  const semicolon = value.indexOf(';')
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase()
}

function bodyKind(
  type: string,
  accepts: readonly string[] | undefined,
): 'json' | 'form' | 'multipart' | 'raw' | undefined {
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

/**
 * A body an adapter can hand over in one piece when its length is declared and within `limit` (node:http): one wait
 * instead of one per chunk. Else `whole` answers undefined and the body is read chunk by chunk.
 */
export interface WholeBody extends AsyncIterable<Uint8Array> {
  whole(limit: number): Promise<Uint8Array> | undefined
}

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export function readBytes(
  request: Request | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  try {
    const body = request instanceof Request ? request.body : request
    if (body === null) return Promise.resolve(new Uint8Array(0))
    const whole =
      typeof (body as Partial<WholeBody>).whole === 'function' ? (body as WholeBody).whole(limit) : undefined
    // Taken whole: its promise is the answer, with one wait.
    return whole !== undefined ? whole.then(undefined, unreadable) : readChunks(body, limit)
  } catch (error) {
    return Promise.reject(error)
  }
}

function unreadable(error: unknown): never {
  if (isHttpError(error)) throw error
  throw new HttpError(400, 'The request body could not be read', { cause: error })
}

/** `readBytes` chunk by chunk. */
async function readChunks(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const reader = chunksOf(body)
  const chunks: Uint8Array[] = []
  let total = 0
  try {
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toKwargs(value: Record<string, unknown>): Kwargs {
  const out: Kwargs = Object.create(null)
  for (const key of Object.keys(value)) if (key !== '__proto__') out[key] = value[key] as KwargValue
  return out
}
