/**
 * The answer to one request on uWebSockets.js, written with uWS directly: plain bodies in one corked write,
 * `Content-Length` when the length is known and chunked coding otherwise, backpressure through `onWritable`, nothing
 * written after the client has gone. `Exchange` (`exchange.ts`) adds the request side.
 * @module
 */
import { STATUS_CODES } from '../shared/node-http.ts'
import type { HttpRequest, HttpResponse } from 'uWebSockets.js'
import { HttpError } from '../../base/errors.ts'
import { bytesOf, encodedOnce } from './bytes.ts'
import { errorReply, isResponse, type Answer, type HeaderList, type Reply } from '../../lifecycle/response.ts'
import { isContentLength } from '../../lifecycle/body.ts'

/** What an exchange needs from its server: whether it is draining, and where to report that it is settled. */
export interface ExchangeHost {
  readonly pending: Set<UwsResponse>
  readonly closing: boolean
  /** `close()` was called (the drain delay may still be running): readiness checks answer 503. */
  readonly draining: boolean
  /** Lingering close's bounds (see `Exchange.send`). */
  readonly linger: { time: number; bytes: number }
  settled(exchange: UwsResponse): void
}

const EMPTY = new Uint8Array(0)
const CONTENT_TYPE = encodedOnce('content-type')
/** Larger bodies go out with `tryEnd` and `onWritable`, so a slow client never makes uWS buffer all of them. */
const DIRECT_LIMIT = 64 * 1024

export abstract class UwsResponse {
  // Declared, not initialised here: `Exchange`'s constructor stores what every request needs, once each; the members
  // only some answers need are undefined (false) until set. (Class fields would cost a store, and an initialiser
  // call, per request.)
  abstract readonly method: string
  /** The response is complete (or cut): nothing more is written. */
  declare done: boolean
  declare protected readonly res: HttpResponse
  declare protected readonly server: ExchangeHost
  /** uWS's request, valid only while its callback runs (then undefined: see `Exchange.goAsync`). */
  declare protected req: HttpRequest | undefined
  /** The answer was not written in uWS's callback: the server counts it as pending until it is settled. */
  declare protected later: boolean | undefined
  declare private waiting: { retry: ((offset: number) => boolean) | undefined; resolve: () => void } | undefined
  declare private writableHooked: boolean | undefined
  declare private headSent: boolean | undefined
  /** Close the connection after this answer. */
  declare protected closeAfter: boolean | undefined
  /** The request body being read (`Exchange`'s), stopped once the answer is complete. */
  declare protected queue: { stop(): void } | undefined

  constructor(res: HttpResponse, req: HttpRequest, server: ExchangeHost) {
    this.res = res
    this.req = req
    this.server = server
    this.done = false
  }

  /** Cuts the connection (drain timeout). */
  cut(): void {
    if (this.done) return
    this.done = true
    this.res.close()
  }

  protected finished(): void {
    this.done = true
    this.queue?.stop()
    if (this.later) this.server.settled(this)
  }

  /** Writes `answer`; plain bodies in one corked write, streams and large bodies with backpressure. */
  send(answer: Answer): void {
    // (The common answer's way makes no closure: none of its functions allocates a context per request.)
    const body = (answer as Reply).body // a Response's is a stream or null, never a string
    if (this.done || typeof body !== 'string' || body.length > DIRECT_LIMIT) return this.sendOther(answer)
    try {
      this.sendNow(answer as Reply)
    } catch (error) {
      this.failed(error)
    }
  }

  private sendOther(answer: Answer): void {
    if (this.done) {
      if (isResponse(answer)) answer.body?.cancel().catch(() => {})
      else if (answer.body instanceof ReadableStream) answer.body.cancel().catch(() => {})
      return
    }
    try {
      if (isResponse(answer)) return void this.sendResponse(answer).catch((error) => this.failed(error))
      const body = answer.body
      if (
        body === null ||
        (typeof body === 'string' && body.length <= DIRECT_LIMIT) ||
        (body instanceof Uint8Array && body.byteLength <= DIRECT_LIMIT)
      )
        return this.sendNow(answer)
      if (typeof body === 'string' || body instanceof Uint8Array) {
        const bytes = typeof body === 'string' ? Buffer.from(body) : body
        return void this.sendKnown([bytes], bytes.byteLength, answer).catch((error) => this.failed(error))
      }
      if (body instanceof Blob)
        return void this.sendKnown(chunksOf(body.stream()), body.size, answer).catch((error) => this.failed(error))
      void this.sendChunked(chunksOf(body), answer).catch((error) => this.failed(error))
    } catch (error) {
      this.failed(error)
    }
  }

  /** A body in memory, in one write: inside uWS's callback (the request still readable) the socket is corked. */
  private sendNow(answer: Reply): void {
    if (this.req !== undefined) this.sendPlain(answer)
    else this.sendCorked(answer)
    this.finished()
  }

  private sendCorked(answer: Reply): void {
    this.res.cork(() => this.sendPlain(answer))
  }

  private sendPlain(answer: Reply): void {
    const close = this.head(answer.status, answer.statusText, answer.headers, answer.type)
    if (answer.body === null) this.endEmpty(answer.status, close)
    else this.res.end(answer.body as string | Uint8Array, close)
  }

  private async sendResponse(response: Response): Promise<void> {
    const length = response.headers.get('content-length')
    const answer = {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      type: undefined,
    }
    if (response.body === null) {
      this.res.cork(() => {
        const close = this.head(answer.status, answer.statusText, answer.headers, undefined)
        this.endEmpty(answer.status, close)
      })
      this.finished()
      return
    }
    if (length !== null && isContentLength(length))
      return this.sendKnown(chunksOf(response.body), Number(length), answer)
    return this.sendChunked(chunksOf(response.body), answer)
  }

  /** A body of known length: `Content-Length` is sent, then chunks with `tryEnd`, waiting while the client is slow. */
  private async sendKnown(
    chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    total: number,
    answer: Head,
  ): Promise<void> {
    let headPending = true
    let sent = 0
    for await (const chunk of chunks) {
      if (this.done) return
      if (chunk.byteLength === 0) continue
      if (sent + chunk.byteLength > total) throw new Error(`The body is longer than its Content-Length (${total})`)
      sent += chunk.byteLength
      let ok = false
      let ended = false
      const start = headPending ? 0 : this.res.getWriteOffset()
      this.res.cork(() => {
        if (headPending) this.head(answer.status, answer.statusText, answer.headers, answer.type)
        ;[ok, ended] = this.res.tryEnd(chunk, total)
      })
      headPending = false
      if (ended) return this.finished()
      if (!ok) {
        await this.writable((offset) => {
          const [retryOk, retryEnded] = this.res.tryEnd(chunk.subarray(offset - start), total)
          if (retryEnded) this.finished()
          return retryOk || retryEnded
        })
      }
    }
    if (this.done) return
    if (sent !== total) throw new Error(`The body is shorter than its Content-Length (${sent} of ${total})`)
    // total === 0: nothing was written yet
    this.res.cork(() => {
      const close = this.head(answer.status, answer.statusText, answer.headers, answer.type)
      this.res.end(EMPTY, close)
    })
    this.finished()
  }

  /** A body of unknown length: chunked transfer coding, the next chunk read only once uWS has taken the last. */
  private async sendChunked(chunks: AsyncIterable<Uint8Array>, answer: Head): Promise<void> {
    let headPending = true
    let close = false
    for await (const chunk of chunks) {
      if (this.done) return
      if (chunk.byteLength === 0) continue
      let ok = true
      this.res.cork(() => {
        if (headPending) close = this.head(answer.status, answer.statusText, answer.headers, answer.type)
        ok = this.res.write(chunk)
      })
      headPending = false
      if (!ok) await this.writable(undefined)
    }
    if (this.done) return
    this.res.cork(() => {
      if (headPending) close = this.head(answer.status, answer.statusText, answer.headers, answer.type)
      this.res.end(undefined, close)
    })
    this.finished()
  }

  /** Resolves when uWS can take more (or the client left); `retry` re-sends what did not fit. */
  private writable(retry: ((offset: number) => boolean) | undefined): Promise<void> {
    if (this.done) return Promise.resolve()
    if (!this.writableHooked) {
      // One handler for the whole response: uWS does not let a handler be replaced from inside itself.
      this.writableHooked = true
      this.res.onWritable((offset) => {
        const waiting = this.waiting
        if (waiting === undefined) return true
        const ok = waiting.retry === undefined || waiting.retry(offset)
        if (ok) this.wake()
        return ok
      })
    }
    return new Promise((resolve) => {
      this.waiting = { retry, resolve }
    })
  }

  protected wake(): void {
    const waiting = this.waiting
    this.waiting = undefined
    waiting?.resolve()
  }

  /** A stream failed mid-answer (or a bug): answer 500 if nothing was sent yet, else cut the connection. */
  private failed(error: unknown): void {
    if (this.done) return
    console.error('routeless/uws: the response could not be written', error)
    if (!this.headSent) {
      try {
        const reply = internalError(error)
        this.res.cork(() => {
          this.head(reply.status, reply.statusText, reply.headers, reply.type)
          this.res.end(reply.body as string, true)
        })
        this.finished()
        return
      } catch {
        // headers were already on their way: cut below
      }
    }
    this.cut()
    this.server.settled(this)
  }

  /** Writes the status line and headers. Returns whether the connection is to be closed after this answer. */
  private head(
    status: number,
    statusText: string | undefined,
    headers: HeaderList | undefined,
    type: string | undefined,
  ): boolean {
    const res = this.res
    this.headSent = true
    if (status !== 200 || statusText) res.writeStatus(statusLine(status, statusText))
    let close = this.server.closing || this.closeAfter === true
    let hasType = false
    if (headers !== undefined) {
      for (const [name, value] of headers) {
        // uWS writes Date, Content-Length and Transfer-Encoding itself; connection handling is its own too.
        if (name === 'content-type') hasType = true
        else if (name === 'content-length' || name === 'transfer-encoding' || name === 'date' || name === 'keep-alive')
          continue
        else if (name === 'connection') {
          if (/\bclose\b/i.test(value)) close = true
          continue
        }
        res.writeHeader(bytesOf(name), value)
      }
    }
    if (type !== undefined && !hasType) res.writeHeader(CONTENT_TYPE, bytesOf(type))
    return close
  }

  /** No body: `Content-Length: 0`, except where a body is never sent (HEAD, 1xx, 204, 304: RFC 9110 §8.6). */
  private endEmpty(status: number, close: boolean): void {
    if (this.method === 'HEAD' || status === 204 || status === 304 || status < 200) {
      // This uWS build's endWithoutBody() takes no arguments (any crashes it): say `close` as a header instead.
      if (close) this.res.writeHeader('connection', 'close')
      this.res.endWithoutBody()
    } else {
      this.res.end(undefined, close)
    }
  }
}

/** A reply's status line and headers: what is written before its body. */
type Head = Omit<Reply, 'body'>

/** A response body stream as chunks (strings as bytes); the stream is cancelled when the reading stops early. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield typeof value === 'string' ? Buffer.from(value) : value
    }
  } finally {
    reader.cancel().catch(() => {})
  }
}

const STATUS_LINES: ArrayBuffer[] = []

/** `404 Not Found`: the reason phrase given, else the standard one (a space is always sent, RFC 9112 §4). */
function statusLine(status: number, statusText: string | undefined): string | ArrayBuffer {
  if (statusText) return `${status} ${statusText}`
  return (STATUS_LINES[status] ??= encodedOnce(`${status} ${STATUS_CODES[status] ?? ''}`))
}

export function internalError(error: unknown): Reply {
  console.error('routeless/uws: unexpected failure', error)
  return errorReply(new HttpError(500, 'The server could not answer this request')) as Reply
}
