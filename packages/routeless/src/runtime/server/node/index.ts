/**
 * Serving on node:http, without Fetch objects on the way: each IncomingMessage is handed to the core's `handle` as
 * an `IncomingRequest` (see exchange.ts), and its answer written to the ServerResponse. Framing is node's parser's
 * (strict: conflicting Content-Length, Transfer-Encoding with Content-Length and malformed codings are refused with
 * 400 and the connection closed); the request-target policy is routeless's own (runtime/server/shared/request-target.ts).
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer } from '../shared/node-http.ts'
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net'
import { HttpError } from '../../base/errors.ts'
import { attachWebSockets } from './websocket.ts'
import {
  addressInUse,
  DRAIN_TIMEOUT,
  IDLE_GRACE,
  LINGER_BYTES,
  LINGER_TIME,
  running,
  Shutdown,
  type RunningServer,
  type Servable,
  type ServeOptions,
} from '../shared/serving.ts'

export type { CloseOptions, RunningServer, ServeOptions } from '../shared/serving.ts'
import { envClass, NodeIncoming, sendAnswer } from './exchange.ts'
import type { IncomingRequest } from '../../lifecycle/request.ts'
import { authorityOf, normalizeTarget, serverAllow } from '../shared/request-target.ts'
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import { errorReply, type Answer, type Reply } from '../../lifecycle/response.ts'

/** Most header lines a request may have (node would take 2 000 and drop the rest silently): beyond, 431. */
const MAX_HEADERS = 100
/** An unread request body up to this length is read and dropped by node:http, keeping the connection alive. */
const DUMP_LIMIT = 64 * 1024

/** Serves `app` on node:http. Rejects with a clear error when the port is taken. */
export async function serve(app: Servable, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const handle: (incoming: IncomingRequest, env: Record<string, unknown>) => Answer | Promise<Answer> = app.handle
    ? app.handle.bind(app)
    : (incoming, env) => app.fetch(incoming.request(), env)
  let closing = false
  let closed: Promise<void> | undefined
  const shutdown = new Shutdown(options.drainDelay ?? 0, () => {
    closing = true
    sockets?.close()
    return (closed ??= drain(server, options.drainTimeout ?? DRAIN_TIMEOUT))
  })
  const lingerTime = options.linger?.time ?? LINGER_TIME
  const lingerBytes = options.linger?.bytes ?? LINGER_BYTES
  /** `Connection: close` for this answer; when the body is left unread, the connection lingers after it. */
  const closeAfter = (incoming: NodeIncoming, req: IncomingMessage): boolean => {
    if (!leavesBodyUnread(incoming, req)) return closing
    linger(req.socket, lingerTime, lingerBytes)
    return true
  }

  const NodeEnv = envClass(shutdown)

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url!
    const target = normalizeTarget(raw)
    if (target === undefined) return refuse(res, 400, 'The request target is not one this server accepts')
    if (req.rawHeaders.length > MAX_HEADERS * 2) return refuse(res, 431, `More than ${MAX_HEADERS} header fields`)
    if (target === '*') return asterisk(req, res, app, closing)
    const incoming = new NodeIncoming(req, res, target, raw.charCodeAt(0) === 47 ? undefined : authorityOf(raw))
    let answer: Answer | Promise<Answer>
    try {
      answer = handle(incoming, new NodeEnv(req))
    } catch (error) {
      answer = internalError(error) // handle() never throws; this keeps a bug from taking the process down
    }
    // Answered now (a property read tells: `instanceof Promise` would walk the prototype chain).
    if (typeof (answer as Promise<Answer>).then !== 'function')
      return sendAnswer(res, answer as Answer, closeAfter(incoming, req))
    later(answer as Promise<Answer>, res, incoming, req)
  }
  /** An answer still to come (its own function: `onRequest` makes no closures, so no context per request). */
  const later = (answer: Promise<Answer>, res: ServerResponse, incoming: NodeIncoming, req: IncomingMessage) => {
    const send = (answer: Answer) => sendAnswer(res, answer, closeAfter(incoming, req))
    answer.then(send, (error) => send(internalError(error)))
  }

  const server = createServer({ keepAliveTimeout: 5000 }, onRequest)
  let sockets: ReturnType<typeof attachWebSockets> | undefined
  server.on('connect', (_req: IncomingMessage, socket: Socket) => refuseConnect(socket))
  // WebSockets: upgrades are decided by the app's WEBSOCKET handlers (only for apps that can upgrade).
  sockets =
    typeof (app as Partial<UpgradingApp>).upgrade === 'function'
      ? attachWebSockets(server, app as unknown as UpgradingApp)
      : undefined
  await listen(server, host, options.port ?? 8000)
  const port = (server.address() as AddressInfo).port
  return running(host, port, shutdown)
}

/**
 * Whether the answer leaves part of the request body on the connection: then it says `Connection: close`, since what
 * follows cannot be read as the next request without reading all of it. A small body never read is left to node,
 * which drops it and keeps the connection.
 */
function leavesBodyUnread(incoming: NodeIncoming, req: IncomingMessage): boolean {
  if (req.complete || !incoming.hasBody()) return false
  if (incoming.bodyTaken) return true
  const length = req.headers['content-length']
  return length === undefined || Number(length) > DUMP_LIMIT
}

/**
 * Lingering close (nginx's model): once the answer that closes the connection is written, node would close the
 * socket at once, and the client still sending its body would meet a reset before it reads the answer. Instead the
 * write side is shut (FIN after the answer) and what the client sends is read and dropped (node's parser goes on
 * reading the request, which is dumped) until the client closes, `time` ms pass or more than `bytes` bytes came.
 */
function linger(socket: Socket, time: number, bytes: number): void {
  if ((socket as Lingering)[LINGERING]) return
  ;(socket as Lingering)[LINGERING] = true
  // node:http calls destroySoon() on the socket once an answer with `Connection: close` is written.
  socket.destroySoon = function (this: Socket) {
    if (this.writable) this.end()
    const start = this.bytesRead
    const stop = () => this.destroy()
    const deadline = setTimeout(stop, time)
    const watch = setInterval(() => void (this.bytesRead - start > bytes && stop()), 20)
    deadline.unref()
    watch.unref()
    this.once('close', () => {
      clearTimeout(deadline)
      clearInterval(watch)
    })
  }
}

const LINGERING = Symbol('routeless.lingering')
type Lingering = Socket & { [LINGERING]?: boolean }

/** `OPTIONS *` → 204 with every method the application answers; `*` with any other method → 400. */
function asterisk(req: IncomingMessage, res: ServerResponse, app: Servable, closing: boolean): void {
  if (req.method !== 'OPTIONS') return refuse(res, 400, 'The asterisk-form target is only for OPTIONS')
  sendAnswer(
    res,
    { status: 204, headers: [['allow', serverAllow(app.table?.rows)]], type: undefined, body: null },
    closing,
  )
}

/** A client mistake the core never sees: the standard error envelope, and the connection closed. */
function refuse(res: ServerResponse, status: number, message: string): void {
  sendAnswer(res, errorReply(new HttpError(status, message)), true)
}

/** CONNECT asks for a tunnel; this server is not a proxy (node would otherwise drop the connection unanswered). */
function refuseConnect(socket: Socket): void {
  const reply = errorReply(new HttpError(501, 'CONNECT is not supported: this server is not a proxy')) as Reply
  const body = reply.body as string
  const head = `HTTP/1.1 501 Not Implemented\r\nContent-Type: ${reply.type}\r\nContent-Length: ${Buffer.byteLength(body)}`
  socket.end(`${head}\r\nConnection: close\r\n\r\n${body}`)
}

function internalError(error: unknown): Answer {
  console.error('routeless/node: unexpected failure', error)
  return errorReply(new HttpError(500, 'The server could not answer this request'))
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening)
      reject(error.code === 'EADDRINUSE' ? addressInUse(host, port) : error)
    }
    const onListening = () => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}

/**
 * Stops listening now (net.Server's close: http.Server's would also close idle connections at once, racing clients
 * that are about to send), closes idle connections after `IDLE_GRACE`, and cuts everything at `timeout`.
 */
function drain(server: Server, timeout: number): Promise<void> {
  return new Promise((resolve) => {
    const grace = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_GRACE, timeout))
    const cut = setTimeout(() => server.closeAllConnections(), timeout)
    grace.unref()
    cut.unref()
    const done = () => {
      clearTimeout(grace)
      clearTimeout(cut)
      resolve()
    }
    try {
      NetServer.prototype.close.call(server, done)
    } catch {
      // Bun's node:http server is no net.Server inside: its own close() (idle connections closed at once) it is.
      server.close(done)
    }
  })
}
