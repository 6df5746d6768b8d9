/**
 * Serving on uWebSockets.js, the only module that loads it. Each request is answered from uWS's own request and
 * response objects: the core's `handle` reads the method, target and headers it needs, and a Fetch `Request` is
 * built only when a controller or an error renderer asks for one. Answers are written with uWS directly: corked,
 * `Content-Length` when the length is known and chunked otherwise, backpressure through `onWritable`, request bodies
 * paused when unread, and nothing written after the client has gone.
 * @module
 */
import { websocketBehavior } from './websocket.ts'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import type { Application } from '../../app/application.ts'
import { HttpError, STATUS_TEXT } from '../../base/errors.ts'
import {
  addressInUse,
  DRAIN_TIMEOUT,
  IDLE_GRACE,
  LINGER_BYTES,
  LINGER_TIME,
  running,
  Shutdown,
  type RunningServer,
  type ServeOptions,
} from '../shared/serving.ts'
import { normalizeParts, normalizeTarget, serverAllow } from '../shared/request-target.ts'
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import { errorReply, type Answer } from '../../lifecycle/response.ts'
import { isContentLength } from '../../lifecycle/body.ts'
import { Exchange, headerList, internalError } from './exchange.ts'
import { encodedOnce } from './bytes.ts'

/** The two header names every request is asked for, as bytes (`bytes.ts`). */
const CONTENT_LENGTH = encodedOnce('content-length')
const TRANSFER_ENCODING = encodedOnce('transfer-encoding')

export type { CloseOptions, RunningServer } from '../shared/serving.ts'

export interface UwsServeOptions extends ServeOptions {
  /**
   * Share the port with other processes or threads listening on it the same way (SO_REUSEPORT), as `--workers`
   * does. Off by default: the port must then be free, as on node:http.
   */
  reusePort?: boolean
}

/** What this build of uWebSockets.js has beyond its type declarations. */
type Uws = typeof import('uWebSockets.js') & { LIBUS_LISTEN_EXCLUSIVE_PORT: number }
type UwsApp = TemplatedApp & {
  listen(host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void): UwsApp
  /** Closes every socket, listening or connected. */
  close(): void
}

let loaded: Uws | undefined

/**
 * The npm line that installs uWebSockets.js: it is not on the npm registry under its own name; this build of it
 * (20.30) is the one routeless is tested with.
 */
export const UWS_INSTALL = 'npm i uWebSockets.js@npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0'

/**
 * Checks that uWebSockets.js loads, with a native build for this Node.js. Throws a clear error (naming
 * `UWS_INSTALL` when it is missing) otherwise. Its own types stay out of routeless's: an app that never installs it
 * type-checks with `skipLibCheck: false`.
 */
export function loadUws(): void {
  requireUws()
}

/** Loads uWebSockets.js once (some builds fall back to a slow JavaScript imitation: refused here). */
function requireUws(): Uws {
  if (loaded) return loaded
  const notes: string[] = []
  const { warn, log } = console
  // A missing native build is reported on the console by the package itself: keep it for our own message.
  console.warn = console.log = (...args: unknown[]) => void notes.push(args.join(' '))
  let uws: Uws
  try {
    uws = createRequire(import.meta.url)('uWebSockets.js') as Uws
  } catch (cause) {
    const missing =
      (cause as { code?: string }).code === 'MODULE_NOT_FOUND' && (cause as Error).message.includes("'uWebSockets.js'")
    const why = missing
      ? 'uWebSockets.js is not installed'
      : `uWebSockets.js failed to load (${(cause as Error).message.split('\n')[0]})`
    throw new Error(
      `${why}: it is an optional dependency, installed with\n  ${UWS_INSTALL}\nor serve on node:http, the default (--server=node)`,
      { cause },
    )
  } finally {
    console.warn = warn
    console.log = log
  }
  if (!/\[native code\]/.test(Function.prototype.toString.call(uws.App))) {
    const reason = notes.join(' ').replace(/\s+/g, ' ').trim()
    throw new Error(
      `uWebSockets.js has no native build for Node.js ${process.version} on ${process.platform}-${process.arch}` +
        (reason ? `: ${reason}` : ''),
    )
  }
  return (loaded = uws)
}

/** Serves `app` on uWebSockets.js. Rejects with a clear error when the port is taken. */
export async function serve(app: Servable, options: UwsServeOptions = {}): Promise<RunningServer> {
  const uws = requireUws()
  const host = options.host ?? '127.0.0.1'
  const server = new UwsServer(app, uws.App() as UwsApp, {
    time: options.linger?.time ?? LINGER_TIME,
    bytes: options.linger?.bytes ?? LINGER_BYTES,
  })
  const shutdown = (server.shutdown = new Shutdown(options.drainDelay ?? 0, () =>
    server.close(options.drainTimeout ?? DRAIN_TIMEOUT),
  ))
  const socket = await new Promise<us_listen_socket | false>((resolve) => {
    if (options.reusePort) server.uapp.listen(host, options.port ?? 8000, resolve)
    else server.uapp.listen(host, options.port ?? 8000, uws.LIBUS_LISTEN_EXCLUSIVE_PORT, resolve)
  })
  if (!socket) throw await listenError(host, options.port ?? 8000)
  server.listenSocket = socket
  const port = uws.us_socket_local_port(socket as never)
  return running(host, port, shutdown)
}

/** uWS only says that listening failed: ask the OS why, the way node:http would report it. */
async function listenError(host: string, port: number): Promise<Error> {
  const probe = createServer()
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    probe.once('error', resolve)
    probe.listen(port, host, () => probe.close(() => resolve(undefined)))
  })
  if (error?.code === 'EADDRINUSE') return addressInUse(host, port)
  if (error) return error
  return new Error(`uWebSockets.js could not listen on ${host}:${port}`)
}

type Servable = Pick<Application, 'handle'> & Partial<Pick<Application, 'table'>>

/**
 * Request framing uWS would read differently from another parser on the way (request smuggling): more than one
 * Content-Length, one that is not a number, a Transfer-Encoding with a Content-Length, or any coding but `chunked`.
 * `length` and `coding` are the first of each header (what uWS's `getHeader` gives). The message, or undefined when
 * the framing is sound.
 */
function framingError(
  headers: readonly (readonly [string, string])[],
  length: string,
  coding: string,
): string | undefined {
  if (coding !== '') {
    if (length !== '') return 'Both Transfer-Encoding and Content-Length'
    if (coding.trim().toLowerCase() !== 'chunked') return `Unsupported Transfer-Encoding: ${coding}`
  }
  if (length !== '' && !isContentLength(length)) return 'Invalid Content-Length header'
  let lengths = 0
  let codings = 0
  for (const [name] of headers) {
    if (name === 'content-length') lengths++
    else if (name === 'transfer-encoding') codings++
  }
  if (lengths > 1) return 'More than one Content-Length header'
  if (codings > 1) return 'More than one Transfer-Encoding header'
  return undefined
}

/** A client mistake the core never sees: the standard error envelope, and the connection closed. */
function refuse(res: HttpResponse, status: number, message: string): void {
  const reply = errorReply(new HttpError(status, message)) as { type: string; body: string }
  res.writeStatus(`${status} ${STATUS_TEXT[status]}`).writeHeader('content-type', reply.type)
  res.end(reply.body, true)
}

/**
 * Refuses a request whose framing is in doubt. Answering at once is not enough on uWS: it goes on parsing what
 * follows in the same read as the next request (the smuggled one) and answers it, `Connection: close` or not. So the
 * 400 waits one turn of the event loop: if more requests were pipelined behind, uWS aborts this response and closes
 * the connection without answering any of them; if not, the 400 goes out and the connection is closed.
 */
function refuseFraming(res: HttpResponse, message: string): void {
  let aborted = false
  res.onAborted(() => void (aborted = true))
  setImmediate(() => {
    if (!aborted) res.cork(() => refuse(res, 400, message))
  })
}

/** An answer still to come (its own function: `onRequest` makes no closure, so no context per request). */
function later(exchange: Exchange, answer: Promise<Answer>): void {
  exchange.goAsync()
  answer.then(
    (a) => exchange.respond(a),
    (error) => exchange.respond(internalError(error)),
  )
}

class UwsServer {
  readonly uapp: UwsApp
  listenSocket: us_listen_socket | undefined
  /** Requests answered after the handler returned: what `close()` waits for. */
  readonly pending = new Set<Exchange>()
  closing = false
  /** The stop `close()` runs (set once listening). */
  shutdown: Shutdown | undefined
  readonly linger: { time: number; bytes: number }
  private closed: Promise<void> | undefined
  private idle: (() => void) | undefined
  private readonly app: Servable

  constructor(app: Servable, uapp: UwsApp, linger: { time: number; bytes: number }) {
    this.app = app
    this.linger = linger
    this.uapp = uapp
    // WebSocket upgrades first (uWS hands requests without an upgrade on to `any`).
    if (typeof (app as Partial<UpgradingApp>).upgrade === 'function')
      uapp.ws('/*', websocketBehavior(app as unknown as UpgradingApp))
    uapp.any('/*', (res, req) => this.onRequest(res, req))
  }

  private onRequest(res: HttpResponse, req: HttpRequest): void {
    const url = req.getUrl()
    const query = req.getQuery()
    const target = query === undefined ? normalizeTarget(url) : normalizeParts(url, query)
    if (target === undefined) return refuse(res, 400, 'The request target is not one this server accepts')
    const length = req.getHeader(CONTENT_LENGTH)
    const coding = req.getHeader(TRANSFER_ENCODING)
    // A request with a body is answered after its callback: its headers are copied now (the request object dies with
    // the callback), once, and the framing checks read the copy.
    let headers: [string, string][] | undefined
    if (length !== '' || coding !== '') {
      headers = headerList(req)
      const framing = framingError(headers, length, coding)
      if (framing !== undefined) return refuseFraming(res, framing)
    }
    if (target === '*') {
      if (req.getCaseSensitiveMethod() !== 'OPTIONS')
        return refuse(res, 400, 'The asterisk-form target is only for OPTIONS')
      res.writeStatus('204 No Content').writeHeader('allow', serverAllow(this.app.table?.rows))
      if (this.closing) res.writeHeader('connection', 'close')
      return void res.endWithoutBody()
    }
    const exchange = new Exchange(res, req, this, target, length, coding, headers)
    let answer: Answer | Promise<Answer>
    try {
      answer = this.app.handle(exchange, exchange.env)
    } catch (error) {
      answer = internalError(error) // handle() never throws; this keeps a bug from taking the process down
    }
    // Answered now (a property read tells: `instanceof Promise` would walk the prototype chain).
    if (typeof (answer as Promise<Answer>).then !== 'function') {
      // Still inside uWS's callback: the socket is corked, the request readable, no abort handler needed.
      exchange.respond(answer as Answer)
      if (!exchange.done) exchange.goAsync()
      return
    }
    later(exchange, answer as Promise<Answer>)
  }

  get draining(): boolean {
    return this.shutdown?.draining ?? false
  }

  settled(exchange: Exchange): void {
    if (this.pending.delete(exchange) && this.closing && this.pending.size === 0) this.idle?.()
  }

  /**
   * Stops accepting at once; answers carry `Connection: close` from now on. Once `IDLE_GRACE` has passed (a client
   * between two requests gets its answer instead of a reset) and nothing is pending, closes every connection (uWS
   * closes all or none: idle ones wait for the last pending answer). What is still pending at `timeout` is cut.
   */
  close(timeout: number): Promise<void> {
    if (this.closing) return this.closed ?? Promise.resolve()
    this.closing = true
    if (this.listenSocket) loaded!.us_listen_socket_close(this.listenSocket as never)
    return (this.closed = new Promise((resolve) => {
      let graceOver = false
      const finish = () => {
        clearTimeout(cut)
        clearTimeout(grace)
        this.idle = undefined
        this.uapp.close() // idle keep-alive connections; nothing is in flight any more
        resolve()
      }
      const cut = setTimeout(() => {
        for (const exchange of this.pending) exchange.cut()
        finish()
      }, timeout)
      const grace = setTimeout(
        () => {
          graceOver = true
          if (this.pending.size === 0) finish()
        },
        Math.min(IDLE_GRACE, timeout),
      )
      cut.unref()
      this.idle = () => void (graceOver && finish())
    }))
  }
}
