/**
 * One request on node:http without Fetch objects: `NodeIncoming` is the core's `IncomingRequest` over node's
 * IncomingMessage (a Fetch `Request` is built only when a controller or a renderer asks), and `sendAnswer` writes the
 * core's answer to the ServerResponse — one `writeHead` and one `end` for bodies in memory, `Content-Length` whenever
 * the length is known (strings, bytes, Blobs), chunked with backpressure otherwise.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError } from '../../base/errors.ts'
import { attachGetBody, type IncomingRequest, type WholeBody } from '../../lifecycle/request.ts'
import { requestAt, streamOf, urlAt } from '../shared/request-target.ts'
import { errorReply, isResponse } from '../../lifecycle/response.ts'
import type { Answer, HeaderList, Reply, TypedLater } from '../../lifecycle/response.ts'
import { isContentLength } from '../../lifecycle/body.ts'

export class NodeIncoming implements IncomingRequest {
  // Declared, not initialised: each is stored once, in the constructor (a class field would add a store, and an
  // initialiser call, per request).
  declare readonly method: string
  declare readonly target: string
  declare readonly req: IncomingMessage
  declare private readonly res: ServerResponse
  declare private readonly authority: string | undefined
  /** The core started reading the body. */
  declare bodyTaken: boolean
  /** Whether the request declares a body: read from its header lines when first asked. */
  declare private declared: boolean | undefined
  /** The Fetch Request, once built (undefined until then). */
  declare private built: Request | undefined

  constructor(req: IncomingMessage, res: ServerResponse, target: string, authority: string | undefined) {
    this.req = req
    this.res = res
    this.method = req.method!
    this.target = target
    this.authority = authority
    this.bodyTaken = false
    this.declared = undefined
  }

  header(name: string): string | null {
    // A field node keeps the first of (`Content-Length`, `Content-Type` …) is read from the header lines: the request's
    // `headers` object, built on first use, costs more than the few lines a request has.
    if (FIRST_WINS.has(name)) return firstLine(this.req.rawHeaders, name)
    const value = this.req.headers[name]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }

  /** The request declares a body (node's parser has already refused conflicting or malformed framing). */
  hasBody(): boolean {
    return (this.declared ??= declaresBody(this.req.rawHeaders))
  }

  body(): AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null {
    // A guard or `before()` may have built the Fetch Request (and handed it the body) before the core reads it.
    // (A GET's Fetch Request has no body — Fetch allows none — so a GET's declared body is still here.)
    if (this.built && this.method !== 'GET') return this.built.bodyUsed ? null : this.built.body
    if (this.bodyTaken || !this.hasBody()) return null
    this.bodyTaken = true
    return chunksOf(this.req)
  }

  request(): Request {
    if (this.built) return this.built
    const headers = new Headers()
    const raw = this.req.rawHeaders
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!)
    const controller = new AbortController()
    this.res.once('close', () => void (!this.res.writableFinished && controller.abort()))
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: controller.signal }
    const body = this.method === 'GET' || this.method === 'HEAD' ? null : this.body()
    if (body !== null) {
      init.body = streamOf(body as AsyncIterable<Uint8Array>)
      init.duplex = 'half'
    }
    this.built = requestAt(this.origin(), this.target, init)
    if (this.method === 'GET' && this.hasBody()) attachGetBody(this.built, this)
    return this.built
  }

  url(): URL {
    return urlAt(this.origin(), this.target)
  }

  private origin(): string {
    const scheme = (this.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
    return `${scheme}://${this.authority ?? this.req.headers.host ?? 'localhost'}`
  }
}

/** The fields of which node:http's `headers` keeps the first line and drops the others (`matchKnownFields`). */
const FIRST_WINS = new Set(['content-type', 'content-length', 'authorization', 'host', 'user-agent', 'referer'])

/**
 * The spelling most clients write of the fields read from the lines (`Content-Type`): a line so written is matched
 * without lower-casing it (the runtime's `toLowerCase` costs ~400 instructions a call).
 */
const USUAL = new Map([
  ['content-type', 'Content-Type'],
  ['content-length', 'Content-Length'],
  ['authorization', 'Authorization'],
  ['host', 'Host'],
  ['user-agent', 'User-Agent'],
  ['referer', 'Referer'],
  ['transfer-encoding', 'Transfer-Encoding'],
])

/**
 * Whether a header line's name `line` is the field `name` (lower case), `usual` its usual spelling: compared as it is
 * when so spelt (or in lower case), else lower-cased.
 */
function isField(line: string, name: string, usual: string | undefined): boolean {
  return line.length === name.length && (line === usual || line === name || line.toLowerCase() === name)
}

/** The value of the first line named `name` (lower case), or null: what `req.headers[name]` holds for those fields. */
function firstLine(lines: string[], name: string): string | null {
  const usual = USUAL.get(name)
  for (let i = 0; i < lines.length; i += 2) if (isField(lines[i]!, name, usual)) return lines[i + 1]!
  return null
}

/**
 * Whether header lines (`rawHeaders`) declare a body: a Transfer-Encoding, or a Content-Length other than 0 (the
 * first one, as `req.headers` keeps it). Read from the lines, so that a request nobody asks a header of never has
 * node build its `headers` object.
 */
function declaresBody(lines: string[]): boolean {
  let length: string | undefined
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!
    if (isField(name, 'transfer-encoding', 'Transfer-Encoding')) return true
    if (length === undefined && isField(name, 'content-length', 'Content-Length')) length = lines[i + 1]
  }
  return length !== undefined && length !== '0'
}

/** `this.env` on node:http: the peer's address, and node's own request for code that needs it. */
export interface NodeEnv {
  [key: string]: unknown
  readonly req: IncomingMessage
  readonly remoteAddress: string | undefined
  /** The server is going away (`close()` was called): readiness checks answer 503. */
  readonly draining: boolean
}

/**
 * The class of one server's `this.env`: `draining` is the server's, so an env holds only its request (one store per
 * request; its one enumerable member, `req`).
 */
export function envClass(server: { readonly draining: boolean }): new (req: IncomingMessage) => NodeEnv {
  return class NodeEnv {
    [key: string]: unknown
    declare readonly req: IncomingMessage
    constructor(req: IncomingMessage) {
      this.req = req
    }
    get remoteAddress(): string | undefined {
      return this.req.socket.remoteAddress
    }
    get draining(): boolean {
      return server.draining
    }
  }
}

/**
 * Writes `answer`. `close` asks for `Connection: close` (the server is draining, or the request body was left
 * unread, so what follows on the connection cannot be trusted to be the next request).
 */
export function sendAnswer(res: ServerResponse, answer: Answer, close: boolean): void {
  if (res.destroyed) {
    cancel(answer)
    return
  }
  try {
    write(res, answer, close)
  } catch (error) {
    // A status text or header node refuses (a bug in the app): 500 if nothing went out yet, else cut.
    console.error('routeless/node: the response could not be written', error)
    cancel(answer)
    if (res.headersSent) res.destroy()
    else write(res, errorReply(new HttpError(500, 'The server could not answer this request')), true)
  }
}

function write(res: ServerResponse, answer: Answer, close: boolean): void {
  const body = (answer as Reply).body // a Response's is a stream or null, never a string
  // The common answer: a string (JSON), no headers but its type. One list, as `writeHead` takes it.
  if (typeof body === 'string' && (answer as Reply).headers === undefined && (answer as Reply).type !== undefined) {
    const type = (answer as Reply).type!
    const length = Buffer.byteLength(body)
    const head = close
      ? ['content-type', type, 'connection', 'close', 'content-length', length]
      : ['content-type', type, 'content-length', length]
    res.writeHead(answer.status, (answer as Reply).statusText, head)
    res.end(body)
    return
  }
  if (isResponse(answer)) {
    const length = answer.headers.get('content-length')
    const known = answer.body !== null && length !== null && isContentLength(length) ? Number(length) : undefined
    const head = headLines(answer.headers, undefined, close)
    if (answer.body === null) return void writeEmpty(res, answer.status, answer.statusText, head)
    if (known !== undefined) head.push('content-length', String(known))
    res.writeHead(answer.status, answer.statusText || undefined, head)
    return void pipe(res, answer.body)
  }
  const head = headLines(answer.headers, answer.type, close)
  if (body === null) return void writeEmpty(res, answer.status, answer.statusText, head)
  if (typeof body === 'string') {
    head.push('content-length', String(Buffer.byteLength(body)))
    res.writeHead(answer.status, answer.statusText, head)
    res.end(body)
    return
  }
  if (body instanceof Uint8Array) {
    head.push('content-length', String(body.byteLength))
    res.writeHead(answer.status, answer.statusText, head)
    res.end(body)
    return
  }
  if (body instanceof Blob) {
    head.push('content-length', String(body.size))
    res.writeHead(answer.status, answer.statusText, head)
    return void pipe(res, body.stream())
  }
  if ((body as TypedLater).typePending) return void streamAfterFirst(res, answer, body, close)
  res.writeHead(answer.status, answer.statusText, head)
  void pipe(res, body)
}

/**
 * A generator's stream whose type its first value settles (bytes: see `toReply`): the first chunk is read before
 * the head is written, so the type sent is the right one (and a generator that fails at once is answered 500).
 */
async function streamAfterFirst(
  res: ServerResponse,
  answer: Reply,
  body: ReadableStream<Uint8Array>,
  close: boolean,
): Promise<void> {
  const reader = body.getReader()
  let first: ReadableStreamReadResult<Uint8Array>
  try {
    first = await reader.read()
  } catch (error) {
    reader.cancel().catch(() => {})
    console.error('routeless/node: the response could not be written', error)
    if (!res.destroyed) write(res, errorReply(new HttpError(500, 'The server could not answer this request')), true)
    return
  }
  if (res.destroyed) return void reader.cancel().catch(() => {})
  res.writeHead(answer.status, answer.statusText, headLines(answer.headers, answer.type, close))
  if (first.done) return void res.end()
  reader.releaseLock()
  async function* rest(): AsyncIterable<Uint8Array> {
    yield first.value!
    yield* body as unknown as AsyncIterable<Uint8Array>
  }
  await pipe(res, rest())
}

/** No body: `Content-Length: 0`, except where a body is never sent (HEAD, 1xx, 204, 304: RFC 9110 §8.6). */
function writeEmpty(res: ServerResponse, status: number, statusText: string | undefined, head: string[]): void {
  if (status !== 204 && status !== 304 && status >= 200 && res.req.method !== 'HEAD') head.push('content-length', '0')
  res.writeHead(status, statusText || undefined, head)
  res.end()
}

/** Header pairs as the flat list `writeHead` takes; framing headers are node's to write (and ours to compute). */
function headLines(headers: HeaderList | undefined, type: string | undefined, close: boolean): string[] {
  if (headers === undefined)
    return type === undefined
      ? close
        ? ['connection', 'close']
        : []
      : close
        ? ['content-type', type, 'connection', 'close']
        : ['content-type', type]
  const out: string[] = []
  let hasType = false
  // Names are lower case: a `Headers` makes them so, and shared pair lists are written that way.
  for (const [name, value] of headers) {
    if (name === 'content-length' || name === 'transfer-encoding' || name === 'keep-alive') continue
    if (name === 'connection') {
      if (/\bclose\b/i.test(value)) close = true
      continue
    }
    if (name === 'content-type') hasType = true
    out.push(name, value)
  }
  if (type !== undefined && !hasType) out.push('content-type', type)
  if (close) out.push('connection', 'close')
  return out
}

/** Streams `body` with backpressure; a client that leaves cancels it, a failing stream cuts the connection. */
async function pipe(res: ServerResponse, body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
  const reader =
    typeof (body as ReadableStream).getReader === 'function'
      ? (body as ReadableStream<Uint8Array>).getReader()
      : undefined
  const iterator = reader ? undefined : (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]()
  try {
    for (;;) {
      const { done, value } = reader ? await reader.read() : await iterator!.next()
      if (done || res.destroyed) break
      if (value.byteLength === 0) continue
      if (!res.write(typeof value === 'string' ? Buffer.from(value) : value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go).off('close', go)
            resolve()
          }
          res.on('drain', go).on('close', go)
        })
      }
    }
    if (!res.destroyed) res.end()
  } catch (error) {
    console.error('routeless/node: the response could not be written', error)
    res.destroy()
  } finally {
    if (reader) reader.cancel().catch(() => {})
    else void iterator?.return?.()?.catch(() => {})
  }
}

function cancel(answer: Answer): void {
  const body = answer instanceof Response ? answer.body : answer.body
  if (body instanceof ReadableStream) body.cancel().catch(() => {})
}

/**
 * An IncomingMessage's chunks as an async iterable, lighter than its own iterator: listens only once read from, and
 * a reader that stops early (413) leaves the rest to be dropped. A body of declared length within the limit can be
 * taken whole instead (`whole`): node's parser holds it to that length.
 */
function chunksOf(message: IncomingMessage): WholeBody {
  let started = false
  return {
    whole(limit: number): Promise<Uint8Array> | undefined {
      const lines = message.rawHeaders
      const length = firstLine(lines, 'content-length')
      if (started || length === null || firstLine(lines, 'transfer-encoding') !== null || Number(length) > limit)
        return undefined
      started = true
      return new Promise<Uint8Array>((resolve, reject) => {
        const chunks: Buffer[] = []
        let total = 0
        // Left on the message once it ended (nothing is emitted after 'end' but 'close', which then finds it
        // complete; settling twice is a no-op): removing four listeners cost more than the rest of the read.
        const onData = (chunk: Buffer) => void (chunks.push(chunk), (total += chunk.byteLength))
        const onEnd = () => void resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total))
        const onError = (error: Error) => {
          message.off('data', onData)
          reject(error)
        }
        const onClose = () => void (!message.complete && onError(new Error('The client closed the connection')))
        message.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose)
      })
    },
    [Symbol.asyncIterator]() {
      started = true
      const chunks: Uint8Array[] = []
      let done = false
      let failure: Error | undefined
      let waiting: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: Error) => void } | undefined
      const settle = () => {
        const w = waiting
        if (w === undefined) return
        waiting = undefined
        if (failure) w.reject(failure)
        else if (chunks.length > 0) w.resolve({ done: false, value: chunks.shift()! })
        else if (done) w.resolve({ done: true, value: undefined })
        else waiting = w
      }
      const onData = (chunk: Uint8Array) => void (chunks.push(chunk), settle())
      const onEnd = () => void ((done = true), settle())
      const onError = (error: Error) => void ((failure = error), settle())
      const onClose = () => void (!message.complete && onError(new Error('The client closed the connection')))
      message.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose)
      return {
        next: () =>
          new Promise<IteratorResult<Uint8Array>>((resolve, reject) => {
            waiting = { resolve, reject }
            settle()
          }),
        return: () => {
          message.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose)
          message.resume() // node:http drops what is left
          return Promise.resolve({ done: true, value: undefined })
        },
      }
    },
  }
}
