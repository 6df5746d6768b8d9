/**
 * The request as the core reads it (`IncomingRequest`), from a Fetch `Request` or an adapter's own. Its body, read
 * and decoded: `body.ts`; its query: `query.ts`.
 * @module
 */
export { getQuery, parseQuery } from './query.ts'

/**
 * A request as an adapter hands it to `Application.handle`: what routing needs up front, the rest on demand, so
 * that answering it does not require a Fetch `Request` (routeless/uws builds one only when something asks).
 */
export interface IncomingRequest {
  /** The method token as sent (upper case). */
  readonly method: string
  /** Path and query (`/users/7?fields=name`), as `normalizeTarget` (runtime/server/shared/request-target.ts) leaves a raw target. */
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
 * The declared bodies of GET requests whose Fetch `Request` an adapter built: Fetch lets a GET carry none, so the
 * adapter leaves it here, and a `Request` handed to `app.fetch` (by a wrapper of the app's fetch, for instance) still
 * has its body read.
 */
const getBodies = new WeakMap<Request, IncomingRequest>()

/** For adapters: `request` (a GET they built) has its declared body in `source.body()`. */
export function attachGetBody(request: Request, source: IncomingRequest): void {
  getBodies.set(request, source)
}

/**
 * A Fetch `Request` as an `IncomingRequest`. An adapter that holds the raw body (node:http's IncomingMessage) may
 * give it as `body`: the core then reads it directly instead of through the Request's stream.
 */
export function fromRequest(request: Request, body?: AsyncIterable<Uint8Array>): IncomingRequest {
  return new FetchIncoming(request, body)
}

class FetchIncoming implements IncomingRequest {
  // Declared, each stored once by the constructor (class fields would add an initialiser call per request).
  declare readonly method: string
  declare readonly target: string
  declare private readonly req: Request
  declare private readonly raw: AsyncIterable<Uint8Array> | undefined
  declare private parsed: URL | undefined
  /** The Request's headers, read once (Bun makes its `Headers` when first asked). */
  declare private fields: Headers | undefined
  /**
   * Its Content-Length once read (undefined before): `body()` and the body's reader both ask, and on Deno each
   * `Headers` call is JavaScript that costs ~400 instructions.
   */
  declare private contentLengthValue: string | null | undefined

  constructor(request: Request, body?: AsyncIterable<Uint8Array>) {
    this.req = request
    this.raw = body
    this.method = knownMethod(request.method)
    this.target = targetOf(request.url)
    this.parsed = undefined
    this.fields = undefined
    this.contentLengthValue = undefined
  }

  header(name: string): string | null {
    if (name === 'content-length') return this.contentLength()
    return (this.fields ??= this.req.headers).get(name)
  }

  private contentLength(): string | null {
    if (this.contentLengthValue === undefined)
      this.contentLengthValue = (this.fields ??= this.req.headers).get('content-length')
    return this.contentLengthValue
  }

  /** A GET's body is only ever the one an adapter attached (Fetch lets a GET carry none); other methods say by header. */
  hasBody(): boolean {
    if (this.raw === undefined && this.method === 'GET' && !getBodies.has(this.req)) return false
    if ((this.fields ??= this.req.headers).has('transfer-encoding')) return true
    const length = this.contentLength()
    return length !== null && length !== '0'
  }

  body(): ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null {
    if (this.raw !== undefined) return this.raw
    if (this.method === 'GET') return getBodies.get(this.req)?.body() ?? null
    // A declared length is taken whole by the runtime's own reader (Bun's and Deno's are native): one wait, and no
    // stream made (Bun makes one when `body` is read).
    return this.contentLength() !== null ? new FetchBody(this.req) : this.req.body
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
  declare private readonly req: Request
  constructor(request: Request) {
    this.req = request
  }

  whole(): Promise<Uint8Array> | undefined {
    const request = this.req
    if (request.bodyUsed) return undefined
    // `bytes()` where the runtime has it (Bun, Deno, workerd): no ArrayBuffer to wrap.
    return typeof request.bytes === 'function'
      ? request.bytes()
      : request.arrayBuffer().then((buffer) => new Uint8Array(buffer))
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

/**
 * A common method as the string constant of that name. Deno makes the method a new string for each request, so every
 * look-up by it (the endpoint's `Map` of handlers) hashed it again; a constant's hash is made once.
 */
function knownMethod(method: string): string {
  switch (method) {
    case 'GET':
      return 'GET'
    case 'POST':
      return 'POST'
    case 'PUT':
      return 'PUT'
    case 'DELETE':
      return 'DELETE'
    case 'PATCH':
      return 'PATCH'
    case 'HEAD':
      return 'HEAD'
    case 'OPTIONS':
      return 'OPTIONS'
    default:
      return method
  }
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

/**
 * A body an adapter can hand over in one piece when its length is declared and within `limit` (node:http): one wait
 * instead of one per chunk. Else `whole` answers undefined and the body is read chunk by chunk. The reader checks
 * the bytes against the limit again (a Fetch `Request` may carry more than it declared).
 */
export interface WholeBody extends AsyncIterable<Uint8Array> {
  whole(limit: number): Promise<Uint8Array> | undefined
}
