/**
 * Typed WebSocket messages (`SocketHandlers<In, Out>`): between the server's frames and the handlers, each text frame
 * is parsed as JSON and checked by the validator generated for `In` (the same kind of validator as the parameters'),
 * and each message sent is written as JSON (checked against `Out` in development). A frame that fails closes the
 * socket (1007, with a reason naming the field; 1003 for a binary frame), or goes to the handlers' `invalid`. The
 * servers and hosts see plain handlers: this wraps them once per upgrade, for every runtime alike.
 * @module
 */
import type { ValidateFunction } from '../contract/validators.ts'
import { RoutelessError } from '../base/errors.ts'
import type { Handler } from '../routing/table.ts'
import type { PipelineOptions } from './handler-shape.ts'
import type { Frame, MessageProblem, Socket, SocketHandlers } from './websocket.ts'

/** How a handler's messages are read and written (`runtime/lifecycle/handler-shape.ts` makes it from the handler's types). */
export interface SocketPlan {
  /** The validator of incoming messages; undefined: frames reach `message` as they are. */
  receives: ValidateFunction | undefined
  /** Outgoing messages are written as JSON text. */
  sends: boolean
  /** Development: reports an outgoing message its type does not describe. */
  checkSend: ((value: unknown) => void) | undefined
}

/**
 * How `handler`'s declared messages are read and written, as the function that types the handlers it returns: the
 * validator of what it receives (generated with the parameters'), and in development the check of what it sends.
 */
export function typedSockets(handler: Handler, options: PipelineOptions): (handlers: SocketHandlers) => SocketHandlers {
  const decl = handler.types!.socket!
  const where = `${handler.className}.${handler.name} (${handler.file})`
  if (decl.receives && !options.validator)
    throw new RoutelessError('ROUTELESS_ERR_BUNDLE', `${where} declares its messages: it needs the handler types`)
  const { checkReturns: report, checkReturn } = options
  const check = decl.sends && report && checkReturn ? checkReturn(decl.sends, options.defs) : undefined
  const plan: SocketPlan = {
    receives: decl.receives ? options.validator!(decl.receives) : undefined,
    sends: decl.sends !== null,
    checkSend:
      check &&
      ((value) => {
        const problem = check(value)
        if (problem) report!(`${where}: a message sent: ${problem.replace(/the returned value/g, 'the message')}`)
      }),
  }
  return (handlers) => typedSocket(handlers as SocketHandlers<unknown, unknown>, plan)
}

/** The longest close reason a WebSocket frame carries, in bytes. */
const MAX_REASON = 123

/** `handlers` as the servers call them: frames in, frames out. */
export function typedSocket(handlers: SocketHandlers<unknown, unknown>, plan: SocketPlan): SocketHandlers {
  const sockets = new WeakMap<Socket, Socket<unknown>>()
  const typed = (raw: Socket): Socket<unknown> => {
    if (!plan.sends) return raw as Socket<unknown>
    let socket = sockets.get(raw)
    if (!socket) {
      socket = {
        send(value) {
          plan.checkSend?.(value)
          raw.send(handlers.encode ? handlers.encode(value) : JSON.stringify(value))
        },
        close: (code, reason) => raw.close(code, reason),
        remoteAddress: raw.remoteAddress,
      }
      sockets.set(raw, socket)
    }
    return socket
  }
  const refuse = (raw: Socket, problem: MessageProblem, code: number) => {
    if (handlers.invalid) return handlers.invalid(typed(raw), problem)
    raw.close(code, reasonOf(problem))
  }
  const out: SocketHandlers = {}
  if (handlers.open) out.open = (raw) => handlers.open!(typed(raw))
  if (handlers.close) out.close = (raw, code, reason) => handlers.close!(typed(raw), code, reason)
  const validate = plan.receives
  if (!validate) {
    if (handlers.message) out.message = (raw, data) => handlers.message!(typed(raw), data)
    return out
  }
  const decode = handlers.decode
  out.message = (raw: Socket, frame: Frame) => {
    if (!decode && typeof frame !== 'string')
      return refuse(raw, { path: '', message: 'must be a JSON text frame', frame }, 1003)
    let value: unknown
    try {
      value = decode ? decode.call(handlers, frame) : JSON.parse(frame as string)
    } catch (error) {
      return refuse(raw, { path: '', message: decode ? (error as Error).message : 'is not JSON', frame }, 1007)
    }
    if (!validate(value)) return refuse(raw, { ...problemOf(validate), frame, value }, 1007)
    return handlers.message?.(typed(raw), value)
  }
  return out
}

/**
 * The most telling of the validator's errors: in a union, the member the message came closest to — not one whose tag
 * (a `const`, an `enum`) it does not carry, and the deepest mismatch of the rest.
 */
function problemOf(validate: ValidateFunction): Pick<MessageProblem, 'path' | 'message'> {
  type Error = { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }
  const rank = (e: Error) =>
    (e.keyword === 'const' || e.keyword === 'enum' ? 0 : 1000) + e.instancePath.split('/').length
  let best: Error | undefined
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue
    if (!best || rank(error) > rank(best)) best = error
  }
  if (!best) return { path: '', message: 'does not match its type' }
  if (best.keyword === 'additionalProperties')
    return { path: best.instancePath, message: `has a property "${best.params.additionalProperty}" it may not have` }
  return { path: best.instancePath, message: best.message ?? 'does not match its type' }
}

/** `Invalid message: source_media_chunk.data must be string`, cut to what a close frame carries. */
function reasonOf({ path, message }: Pick<MessageProblem, 'path' | 'message'>): string {
  const field = path
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.')
  const reason = `Invalid message: ${field ? `${field} ` : ''}${message}`
  const bytes = new TextEncoder().encode(reason)
  if (bytes.length <= MAX_REASON) return reason
  return `${new TextDecoder().decode(bytes.subarray(0, MAX_REASON - 3)).replace(/\uFFFD$/, '')}…`
}
