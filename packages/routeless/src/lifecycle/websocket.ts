/**
 * WebSockets through controllers. A class answers upgrades on its path with a `WEBSOCKET` method: it runs like any
 * handler (positional arguments, keyword arguments from the query, guards, `before()`, parameter schemas) and
 * returns the socket's handlers — or throws an `HttpError` to refuse (that error is the HTTP answer).
 *
 * ```ts
 * export class Echo extends Controller {
 *   WEBSOCKET(room = 'lobby') {
 *     return {
 *       open: (socket) => socket.send(`joined ${room}`),
 *       message: (socket, data) => socket.send(data),
 *     } satisfies SocketHandlers
 *   }
 * }
 * ```
 * @module
 */

/** One connected client, the same on node:http (ws) and on uWebSockets.js. */
export interface Socket {
  send(data: string | Uint8Array): void
  /** Closes with a WebSocket close code (1000 normal, 1008 policy, 1011 server error …). */
  close(code?: number, reason?: string): void
  readonly remoteAddress: string | undefined
}

export interface SocketHandlers {
  open?(socket: Socket): void | Promise<void>
  /** Text frames arrive as strings, binary frames as bytes. */
  message?(socket: Socket, data: string | Uint8Array): void | Promise<void>
  close?(socket: Socket, code: number, reason: string): void
}

/** What `Application.upgrade` decides: accept with these handlers, or answer the HTTP request with `response`. */
export type UpgradeDecision =
  | { accepted: true; handlers: SocketHandlers; protocol: string | undefined }
  | { accepted: false; response: Response }

/** Runs a handler of the socket, so that a throw or a rejection closes that socket with 1011, never the server. */
export function runSocketHandler(
  socket: Socket,
  onError: (error: unknown) => void,
  fn: () => void | Promise<void>,
): void {
  const fail = (error: unknown) => {
    onError(error)
    try {
      socket.close(1011, 'Internal error')
    } catch {
      // already closed
    }
  }
  try {
    const result = fn()
    if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).catch(fail)
  } catch (error) {
    fail(error)
  }
}

/** The application as a WebSocket upgrade needs it. */
export interface UpgradingApp {
  upgrade(request: Request, env?: Record<string, unknown>): Promise<UpgradeDecision>
  socketError?(error: unknown): void
}
