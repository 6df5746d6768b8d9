/**
 * WebSockets through `app.fetch`, on the hosts that upgrade a Fetch `Request` themselves:
 * - **Bun**: `Bun.serve({ fetch: app.fetch, websocket: app.websocket })`. Bun passes its server as `fetch`'s second
 *   argument; `server.upgrade(request)` takes the connection, and its frames reach the `websocket` object.
 * - **Deno**: `Deno.serve(app.fetch)`; `Deno.upgradeWebSocket(request)` gives the socket and the 101 to answer.
 * - **Workers** (workerd): `new WebSocketPair()`; the server end is accepted here, the client end goes in the 101.
 *
 * The app decides the upgrade as everywhere (`Application.upgrade`: guards, `before()`, the `WEBSOCKET` handler);
 * this module only joins the host's socket to the handlers. A service of the app (`runtime/app/services.ts`), so that a
 * Worker whose tree takes no WebSockets carries none of it (nor the typed messages', `typed-socket.ts`). node:http and
 * uWS upgrade in their own servers.
 * @module
 */
import type { HeadersInput } from '../base/headers.ts'
import { typedSockets } from './typed-socket.ts'
import { runSocketHandler, type Socket, type SocketHandlers, type UpgradingApp } from './websocket.ts'

/** The largest WebSocket message the servers take by default, in bytes. */
export const MAX_MESSAGE = 1024 * 1024
/** How long a silent WebSocket stays open where the server closes idle ones (uWS, Bun), in seconds. */
export const SOCKET_IDLE = 120

/** What a Bun socket carries from its upgrade to its frames. */
export interface SocketData {
  handlers: SocketHandlers
  socket?: Socket
  closed?: boolean
}

/** The part of a Bun socket this module uses. */
export interface BunSocket {
  readonly data: SocketData
  readonly remoteAddress: string
  send(data: string | Uint8Array): number
  close(code?: number, reason?: string): void
}

/** The part of a Bun server this module uses. */
interface BunUpgrader {
  upgrade(request: Request, options?: { data?: unknown; headers?: HeadersInput }): boolean
}

/** A socket of the WHATWG kind, as Deno and workerd give the server's end. */
interface WebStandardSocket {
  binaryType: string
  send(data: string | Uint8Array): void
  close(code?: number, reason?: string): void
  addEventListener(type: string, listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void
  accept?(): void
}

type Upgrading = UpgradingApp & { socketError(error: unknown): void }

/** Whether `request` asks to become a WebSocket. */
export function wantsUpgrade(request: Request): boolean {
  return request.method === 'GET' && request.headers.get('upgrade')?.toLowerCase() === 'websocket'
}

/**
 * The answer to `request` when it asks for a WebSocket and this host upgrades Fetch requests: the app's refusal,
 * or the host's 101. Undefined otherwise: the request is answered as any other.
 */
export function upgradeOnHost(
  app: Upgrading,
  request: Request,
  env: Record<string, unknown>,
): Promise<Response> | undefined {
  if (!wantsUpgrade(request)) return undefined
  const deno = (globalThis as { Deno?: { upgradeWebSocket?: Function } }).Deno?.upgradeWebSocket
  const Pair = (globalThis as { WebSocketPair?: new () => Record<0 | 1, WebStandardSocket> }).WebSocketPair
  const bun = typeof env.upgrade === 'function' ? (env as unknown as BunUpgrader) : undefined
  if (!bun && !deno && !Pair) return undefined
  return app.upgrade(request, env).then((decision) => {
    if (!decision.accepted) return decision.response
    const { handlers, protocol } = decision
    const headers: Record<string, string> = protocol ? { 'sec-websocket-protocol': protocol } : {}
    const onError = (error: unknown) => app.socketError(error)
    if (bun) {
      try {
        if (!bun.upgrade(request, { data: { handlers } satisfies SocketData, headers }))
          return new Response('The WebSocket upgrade failed', { status: 400 })
      } catch (error) {
        // Bun refuses `server.upgrade` when Bun.serve was given no `websocket` object.
        onError(error)
        return new Response('WebSockets need Bun.serve({ fetch: app.fetch, websocket: app.websocket })', {
          status: 500,
        })
      }
      return new Response(null, { status: 101 }) // Bun answered the upgrade itself and ignores this
    }
    if (deno) {
      // (Deno's connection info cannot be read once the request is upgraded.)
      const address = (env.remoteAddr as { hostname?: string } | undefined)?.hostname
      const { socket, response } = deno(request, protocol ? { protocol } : {})
      drive(socket, handlers, onError, address, false)
      return response as Response
    }
    const pair = new Pair!()
    pair[1].accept!()
    drive(pair[1], handlers, onError, request.headers.get('cf-connecting-ip') ?? undefined, true)
    return new Response(null, { status: 101, headers, webSocket: pair[0] } as ResponseInit)
  })
}

/** Joins a WHATWG socket (Deno's, workerd's) to the handlers; `open`: it is open already (workerd's, once accepted). */
function drive(
  ws: WebStandardSocket,
  handlers: SocketHandlers,
  onError: (error: unknown) => void,
  remoteAddress: string | undefined,
  open: boolean,
): void {
  let closed = false
  const socket: Socket = {
    send(data) {
      if (!closed) ws.send(data)
    },
    close(code = 1000, reason = '') {
      if (closed) return
      closed = true
      ws.close(code, reason)
    },
    remoteAddress,
  }
  ws.binaryType = 'arraybuffer'
  const opened = () => {
    if (handlers.open) runSocketHandler(socket, onError, () => handlers.open!(socket))
  }
  ws.addEventListener('message', ({ data }) => {
    if (!handlers.message) return
    const payload = typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer)
    runSocketHandler(socket, onError, () => handlers.message!(socket, payload))
  })
  ws.addEventListener('close', ({ code = 1005, reason = '' }) => {
    if (!closed) {
      closed = true
      try {
        ws.close(1000) // the client closed: workerd waits for the server's close frame
      } catch {
        // already answered
      }
    }
    if (handlers.close) runSocketHandler(socket, onError, () => handlers.close!(socket, code, reason))
  })
  if (open) queueMicrotask(opened)
  else ws.addEventListener('open', opened)
}

/** Bun.serve's `websocket` object: the frames of the sockets `upgradeOnHost` (or the Bun server) upgraded. */
export function bunWebSocket(app: { socketError?(error: unknown): void }, maxPayload = MAX_MESSAGE) {
  const onError = (error: unknown) => app.socketError?.(error)
  return {
    maxPayloadLength: maxPayload,
    idleTimeout: SOCKET_IDLE,
    open(ws: BunSocket) {
      const socket = (ws.data.socket = wrapBun(ws))
      const open = ws.data.handlers.open
      if (open) runSocketHandler(socket, onError, () => open(socket))
    },
    message(ws: BunSocket, message: string | Uint8Array) {
      const { handlers, socket } = ws.data
      if (!handlers.message) return
      const payload = typeof message === 'string' ? message : new Uint8Array(message)
      runSocketHandler(socket!, onError, () => handlers.message!(socket!, payload))
    },
    close(ws: BunSocket, code: number, reason: string) {
      ws.data.closed = true
      const { handlers, socket } = ws.data
      if (handlers.close) runSocketHandler(socket!, onError, () => handlers.close!(socket!, code, reason))
    },
  }
}

/** The common `Socket` over a Bun socket; calls after close are ignored. */
function wrapBun(ws: BunSocket): Socket {
  return {
    send(payload) {
      if (!ws.data.closed) ws.send(payload)
    },
    close(code = 1000, reason = '') {
      if (ws.data.closed) return
      ws.data.closed = true
      ws.close(code, reason)
    },
    remoteAddress: ws.remoteAddress,
  }
}

/** The service `runtime/app/services.ts` gives the app: with typed messages (`typed-socket.ts`), for every server. */
export const hostSockets = { upgrade: upgradeOnHost, bun: bunWebSocket, typed: typedSockets }
export type HostSockets = typeof hostSockets
