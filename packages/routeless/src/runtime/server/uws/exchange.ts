/**
 * One request and its response on uWebSockets.js: the core's `IncomingRequest` over uWS's request (a Fetch `Request`
 * built only when asked), its life cycle (going async, the client leaving), and — from `response.ts` — the
 * answer written with uWS directly.
 * @module
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js'
import { attachGetBody, type IncomingRequest } from '../../lifecycle/request.ts'
import { requestAt, streamOf, urlAt } from '../shared/request-target.ts'
import { BodyQueue } from './body.ts'
import { bytesOf } from './bytes.ts'
import type { Answer } from '../../lifecycle/response.ts'
import { UwsResponse, type ExchangeHost } from './response.ts'

export { internalError, type ExchangeHost } from './response.ts'

/**
 * One request and its response. Implements the core's `IncomingRequest` over uWS: uWS's request object is valid
 * only while its callback runs, so `goAsync` copies the headers when an answer has to wait.
 */
export class Exchange extends UwsResponse implements IncomingRequest {
  // Declared, not initialised: the constructor stores each once (see `UwsResponse`); the rest stay undefined until set.
  declare readonly method: string
  declare readonly target: string
  declare readonly env: UwsEnv
  /** The client went away before the answer was complete. */
  declare aborted: boolean | undefined
  declare private headerList: [string, string][] | undefined
  declare protected queue: BodyQueue | undefined
  declare private built: Request | undefined
  declare private abortController: AbortController | undefined
  declare private readonly declared: boolean

  /**
   * `length` and `coding`: the request's Content-Length and Transfer-Encoding ('' when absent, framing already
   * checked). `headers`: its header lines, when the server copied them already.
   */
  constructor(
    res: HttpResponse,
    req: HttpRequest,
    server: ExchangeHost,
    target: string,
    length: string,
    coding: string,
    headers?: [string, string][],
  ) {
    super(res, req, server)
    const hasBody = (length !== '' && length !== '0') || coding !== ''
    this.declared = hasBody
    this.headerList = headers
    // getMethod() would lower-case the method in place: read it as sent. (uWS only routes the nine methods of
    // RFC 9110 and PATCH; it closes the connection on any other token before calling us.)
    const method = (this.method = req.getCaseSensitiveMethod())
    this.target = target
    this.env = new UwsEnv(this)
    // The core reads no body for these: leave it to uWS, which drops it. (A GET's declared body is read: the core
    // hands it to the handler like a POST's.)
    if (!hasBody || method === 'HEAD' || method === 'OPTIONS') {
      this.queue = undefined
      return
    }
    this.queue = bodyQueue(res, coding === '' ? Number(length) : undefined)
  }

  /**
   * Answers the request. Lingering close: an answer ready while the client is still sending a body the core will not read (a 413, an
   * early error) waits for the rest of that body, read and dropped, so a client that writes its whole body before
   * reading (Python's requests, httpx) gets the answer instead of a reset. (uWS cannot close a connection once an
   * answer is complete, so the bound could not be kept after answering: the answer waits instead.) Past `time` ms or
   * `bytes` bytes the answer goes out at once with `Connection: close`.
   */
  respond(answer: Answer): void {
    const queue = this.queue
    if (queue === undefined || queue.complete || this.done) this.send(answer)
    else this.linger(queue, answer)
  }

  private linger(queue: BodyQueue, answer: Answer): void {
    queue.stop()
    const { time, bytes } = this.server.linger
    let sent = false
    const go = (whole: boolean) => {
      if (sent) return
      sent = true
      clearTimeout(deadline)
      if (!whole) this.closeAfter = true
      this.send(answer)
    }
    const deadline = setTimeout(() => go(false), time)
    deadline.unref()
    queue.afterStop(bytes, go)
  }

  // --- IncomingRequest ----------------------------------------------------------------------------------------

  hasBody(): boolean {
    return this.declared
  }

  header(name: string): string | null {
    if (this.req !== undefined) return this.req.getHeader(bytesOf(name)) || null
    let value: string | null = null
    for (const [k, v] of this.headerList!) if (k === name) value = value === null ? v : `${value}, ${v}`
    return value
  }

  body(): AsyncIterable<Uint8Array> | null {
    // A guard or `before()` may have built the Fetch Request (and handed it the body) before the core reads it.
    // (A GET's Fetch Request has no body — Fetch allows none — so a GET's declared body is still here.)
    if (this.built && this.method !== 'GET')
      return this.built.bodyUsed ? null : (this.built.body as unknown as AsyncIterable<Uint8Array> | null)
    const queue = this.queue
    if (queue === undefined || queue.taken) return null
    queue.taken = true
    return queue
  }

  request(): Request {
    if (this.built) return this.built
    const headers = new Headers()
    if (this.req !== undefined) this.req.forEach((k, v) => headers.append(k, v))
    else for (const [k, v] of this.headerList!) headers.append(k, v)
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: this.signal() }
    const body = this.method === 'GET' || this.method === 'HEAD' ? null : this.body()
    if (body !== null) {
      init.body = streamOf(body as BodyQueue)
      init.duplex = 'half'
    }
    this.built = requestAt(this.origin(), this.target, init)
    if (this.method === 'GET' && this.queue !== undefined) attachGetBody(this.built, this)
    return this.built
  }

  url(): URL {
    return urlAt(this.origin(), this.target)
  }

  private origin(): string {
    return `http://${this.header('host') ?? 'localhost'}`
  }

  private signal(): AbortSignal {
    this.abortController ??= new AbortController()
    if (this.aborted) this.abortController.abort()
    return this.abortController.signal
  }

  // --- life cycle ---------------------------------------------------------------------------------------------

  /** The answer will come later: watch for the client leaving, and keep what uWS's request would lose. */
  goAsync(): void {
    this.res.onAborted(() => this.onAborted())
    if (this.req !== undefined) {
      this.headerList ??= headerList(this.req)
      this.req = undefined
    }
    this.later = true
    this.server.pending.add(this)
  }

  private onAborted(): void {
    this.aborted = true
    this.done = true
    this.queue?.fail(new Error('The client closed the connection'))
    this.abortController?.abort()
    this.wake()
    this.server.settled(this)
  }

  /** The server this exchange belongs to. */
  get host(): ExchangeHost {
    return this.server
  }

  readRemoteAddress(): string | undefined {
    if (this.done) return undefined
    return Buffer.from(this.res.getRemoteAddressAsText()).toString()
  }
}

/**
 * The queue of a request's body, reading it from now on: data may follow in this same tick, so the handler must be in
 * place before uWS's callback returns. (A function of its own: the closure is made only for requests with a body.)
 */
function bodyQueue(res: HttpResponse, length: number | undefined): BodyQueue {
  const queue = new BodyQueue(res, length)
  res.onData((chunk, last) => queue.push(chunk, last))
  return queue
}

/** Where an env keeps its exchange: a symbol, so that the env lists no member of its own (`Object.keys`). */
const EXCHANGE = Symbol('routeless.exchange')
/** Where an env keeps the peer's address once read. */
const ADDRESS = Symbol('routeless.address')

/** `this.env` on uWS: the peer's address, read when asked, and whether the server is draining. */
class UwsEnv {
  [key: string]: unknown
  declare [EXCHANGE]: Exchange
  declare [ADDRESS]: string | undefined
  constructor(exchange: Exchange) {
    this[EXCHANGE] = exchange
  }
  get remoteAddress(): string | undefined {
    return (this[ADDRESS] ??= this[EXCHANGE].readRemoteAddress())
  }
  /** The server is going away (`close()` was called): readiness checks answer 503. */
  get draining(): boolean {
    return this[EXCHANGE].host.draining
  }
}

/** The request's header lines, as uWS holds them only while its callback runs. */
export function headerList(req: HttpRequest): [string, string][] {
  const list: [string, string][] = []
  req.forEach((k, v) => void list.push([k, v]))
  return list
}
