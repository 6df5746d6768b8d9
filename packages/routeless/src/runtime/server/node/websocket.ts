/** Internal: WebSocket upgrades on node:http, through `ws`, decided by `Application.upgrade`. */
import type { IncomingMessage, Server } from 'node:http'
import { ServerResponse } from '../shared/node-http.ts'
import type { Socket as NetSocket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { RawData, WebSocket, WebSocketServer } from 'ws'
import { HttpError, STATUS_TEXT } from '../../base/errors.ts'
import { upgradeTarget } from '../shared/request-target.ts'
import { MAX_MESSAGE } from '../shared/serving.ts'
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import { errorResponse } from '../../lifecycle/fetch-response.ts'
import { runSocketHandler, type Socket } from '../../lifecycle/websocket.ts'

const HEARTBEAT_MS = 60_000
/** Bytes queued for one client before it counts as too slow (uWS's default backpressure limit is similar). */
const MAX_BUFFERED = 16 * 1024 * 1024

/** Answers `upgrade` events of `server`; returns the set of open sockets (closed by `close()` on shutdown). */
export function attachWebSockets(server: Server, app: UpgradingApp, maxPayload = MAX_MESSAGE): { close(): void } {
  // `ws` is imported at the first upgrade accepted: a server no WebSocket client reaches never loads it.
  let wss: WebSocketServer | undefined
  const sockets = async () => {
    const { WebSocketServer } = await import('ws')
    wss ??= new WebSocketServer({ noServer: true, maxPayload, handleProtocols: () => false })
    return wss
  }
  const onError = (error: unknown) => app.socketError?.(error)
  // Like uWS: half-open connections are found by ping and dropped (uWS: idleTimeout), slow readers are closed.
  const alive = new WeakMap<WebSocket, boolean>()
  const heartbeat = setInterval(() => {
    for (const client of wss?.clients ?? []) {
      if (alive.get(client) === false) client.terminate()
      else {
        alive.set(client, false)
        client.ping()
      }
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return answerNormally(server, req, socket, head)
    const target = upgradeTarget(req.url ?? '/')
    if (typeof target === 'number')
      return refuse(socket, errorResponse(new HttpError(target, `No WebSocket endpoint at ${req.url}`)))
    const host = req.headers.host ?? 'localhost'
    let request: Request
    try {
      request = new Request(`http://${host}${target}`, { method: 'GET', headers: toHeaders(req) })
    } catch {
      return refuse(socket, new Response(null, { status: 400 }))
    }
    app.upgrade(request, { req, remoteAddress: req.socket.remoteAddress }).then(
      async (decision) => {
        if (socket.destroyed) return
        if (!decision.accepted) return refuse(socket, decision.response)
        const { handlers, protocol } = decision
        if (protocol) req.headers['sec-websocket-protocol'] = protocol
        else delete req.headers['sec-websocket-protocol']
        const upgrader = await sockets()
        if (socket.destroyed) return
        upgrader.handleUpgrade(req, socket, head, (ws: WebSocket) => {
          alive.set(ws, true)
          ws.on('pong', () => alive.set(ws, true))
          const wrapped: Socket = {
            send: (data) => {
              if (ws.bufferedAmount > MAX_BUFFERED) ws.close(1008, 'Client too slow')
              else ws.send(data)
            },
            close: (code, reason) => ws.close(code, reason),
            remoteAddress: req.socket.remoteAddress,
          }
          ws.on('message', (data: RawData, isBinary: boolean) => {
            if (!handlers.message) return
            const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
            runSocketHandler(wrapped, onError, () =>
              handlers.message!(wrapped, isBinary ? new Uint8Array(bytes) : bytes.toString('utf8')),
            )
          })
          ws.on('close', (code: number, reason: Buffer) => {
            if (handlers.close)
              runSocketHandler(wrapped, onError, () => handlers.close!(wrapped, code, reason.toString('utf8')))
          })
          ws.on('error', onError)
          if (handlers.open) runSocketHandler(wrapped, onError, () => handlers.open!(wrapped))
        })
      },
      (error) => {
        onError(error)
        refuse(socket, new Response(null, { status: 500 }))
      },
    )
  })
  return {
    close() {
      clearInterval(heartbeat)
      for (const client of wss?.clients ?? []) client.close(1001, 'Server shutting down')
      wss?.close()
    },
  }
}

/**
 * An `Upgrade` to anything but WebSocket (`h2c` from `curl --http2`): node hands it to `upgrade` listeners only, so
 * answer it as the plain HTTP request it also is, ignoring the offer, then close.
 */
function answerNormally(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  if (head.length > 0) socket.unshift(head)
  const res = new ServerResponse(req)
  res.shouldKeepAlive = false
  res.assignSocket(socket as NetSocket)
  res.on('finish', () => {
    res.detachSocket(socket as NetSocket)
    socket.end()
  })
  server.emit('request', req, res)
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    } catch {
      // a header value Fetch refuses: leave it out
    }
  }
  return headers
}

/** Writes a plain HTTP answer on the raw socket and closes it. */
async function refuse(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer())
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_TEXT[response.status] ?? ''}`.trimEnd()]
  response.headers.forEach((value, key) => {
    if (key !== 'content-length' && key !== 'transfer-encoding' && key !== 'connection') lines.push(`${key}: ${value}`)
  })
  lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '')
  if (!socket.destroyed) socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]))
}
