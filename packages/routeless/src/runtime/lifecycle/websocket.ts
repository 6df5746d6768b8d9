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

/** A frame as it arrives: text as a string, binary as bytes. */
export type Frame = string | Uint8Array

/**
 * One connected client, the same on every server and host. `Out` is what it may be sent: raw frames by default; a
 * declared type (`SocketHandlers<In, Out>`) is sent as JSON text (and checked against its type in development).
 */
export interface Socket<Out = Frame> {
  send(data: Out): void
  /** Closes with a WebSocket close code (1000 normal, 1008 policy, 1011 server error …). */
  close(code?: number, reason?: string): void
  readonly remoteAddress: string | undefined
}

/**
 * What a `WEBSOCKET` handler returns. `In` is what the client sends: raw frames by default; a declared type is
 * parsed from each JSON text frame and checked against the type before `message` sees it (a frame that is not JSON
 * or not an `In` closes the socket with 1007 and a reason naming the field, or goes to `invalid` when given).
 */
export interface SocketHandlers<In = Frame, Out = Frame> {
  open?(socket: Socket<Out>): void | Promise<void>
  message?(socket: Socket<Out>, data: In): void | Promise<void>
  close?(socket: Socket<Out>, code: number, reason: string): void
  /** A message that is not an `In` (typed sockets only): answer it here instead of the close with 1007. */
  invalid?(socket: Socket<Out>, problem: MessageProblem): void | Promise<void>
  /**
   * Frames in another encoding than JSON text (MessagePack …), typed sockets only: every frame is decoded here (a
   * throw refuses it, with the error's message), then checked against `In` as a JSON one is.
   */
  decode?(frame: Frame): unknown
  /** What `send` writes in place of JSON text (typed sockets only). */
  encode?(message: Out): Frame
}

/** Why an incoming message was refused: where (a JSON pointer, `''` for the whole message) and what is wrong. */
export interface MessageProblem {
  path: string
  message: string
  /** The frame as it came. */
  frame: Frame
  /** The message as it was parsed, when it was. */
  value?: unknown
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
  /**
   * False while no handler of the app takes WebSockets: a server that finds upgrades by looking at every request
   * (Bun's) then skips the look, and an `Upgrade` header is ignored, as `app.fetch` ignores it (HTTP lets a server).
   */
  readonly takesSockets?: boolean
  socketError?(error: unknown): void
}
