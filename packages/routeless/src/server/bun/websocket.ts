/** Internal: WebSocket upgrades on Bun.serve, decided by `Application.upgrade`. */
import { runSocketHandler, type Socket, type SocketHandlers, type UpgradingApp } from '../../lifecycle/websocket.ts'
import { MAX_MESSAGE, SOCKET_IDLE } from '../shared/serving.ts'
import type { BunServeOptions, BunServer, BunWebSocket } from './bun-types.ts'

export interface SocketData {
  handlers: SocketHandlers
  socket?: Socket
  closed?: boolean
}

/** Whether `request` asks to become a WebSocket. */
export function wantsUpgrade(request: Request): boolean {
  return request.method === 'GET' && request.headers.get('upgrade')?.toLowerCase() === 'websocket'
}

/**
 * Lets the app decide the upgrade: accepted, Bun upgrades the connection and the answer is `undefined`; refused,
 * the app's HTTP answer (a 404 where no controller takes WebSockets, a guard's 401 …).
 */
export async function upgrade(
  app: UpgradingApp,
  request: Request,
  server: BunServer,
  env: Record<string, unknown>,
): Promise<Response | undefined> {
  const decision = await app.upgrade(request, env)
  if (!decision.accepted) return decision.response
  const data: SocketData = { handlers: decision.handlers }
  const headers = decision.protocol ? { 'sec-websocket-protocol': decision.protocol } : undefined
  if (server.upgrade(request, { data, headers })) return undefined
  return new Response('The WebSocket upgrade failed', { status: 400 })
}

/** Bun.serve's `websocket` option: frames routed to the handlers the app returned. */
export function websocketHandlers(
  app: UpgradingApp,
  maxPayload = MAX_MESSAGE,
): BunServeOptions<SocketData>['websocket'] {
  const onError = (error: unknown) => app.socketError?.(error)
  return {
    maxPayloadLength: maxPayload,
    idleTimeout: SOCKET_IDLE,
    open(ws) {
      const socket = (ws.data.socket = wrap(ws))
      const open = ws.data.handlers.open
      if (open) runSocketHandler(socket, onError, () => open(socket))
    },
    message(ws, message) {
      const { handlers, socket } = ws.data
      if (!handlers.message) return
      const payload = typeof message === 'string' ? message : new Uint8Array(message)
      runSocketHandler(socket!, onError, () => handlers.message!(socket!, payload))
    },
    close(ws, code, reason) {
      ws.data.closed = true
      const { handlers, socket } = ws.data
      if (handlers.close) runSocketHandler(socket!, onError, () => handlers.close!(socket!, code, reason))
    },
  }
}

/** The common `Socket` over a Bun socket; calls after close are ignored. */
function wrap(ws: BunWebSocket<SocketData>): Socket {
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
