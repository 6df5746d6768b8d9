/**
 * The typed client's WebSockets (`client.ts`): a `WEBSOCKET` handler becomes `websocket(...)` at its path
 * (`api.chat.websocket('room1', { token })`), which opens a `WebSocket` and returns a `RoutelessSocket<Send,
 * Receive>`: what it sends is what the handler receives (`SocketHandlers<In, Out>`'s `In`, written as JSON), what it
 * hears is the handler's `Out` (parsed from JSON). A side the handler leaves raw stays raw frames.
 * @module
 */
import type { Handler } from '../../runtime/routing/table.ts'
import { toType } from './client-types.ts'

type Schema = Record<string, any>

/** The generated module's socket type and the function that opens one (top level, beside `createClient`). */
export const SOCKET_RUNTIME: string[] = [
  "type Frame = Parameters<WebSocket['send']>[0]",
  '',
  '/** A WebSocket whose messages are typed: `Send` is what the handler receives, `Receive` what it sends. */',
  'export interface RoutelessSocket<Send, Receive> {',
  '  /** The WebSocket underneath. */',
  '  readonly ws: WebSocket',
  '  /** Resolves once the socket is open; rejects when it fails first (a refused upgrade). */',
  '  readonly opened: Promise<void>',
  '  /** Resolves with the close code and reason (1007 and the field: a message the handler refused). */',
  '  readonly closed: Promise<{ code: number; reason: string }>',
  '  send(message: Send): void',
  '  /** Calls `listener` with each message the server sends; returns what removes it. */',
  '  onMessage(listener: (message: Receive) => void): () => void',
  '  close(code?: number, reason?: string): void',
  '}',
  '',
  'function openSocket(',
  '  options: ClientOptions,',
  '  template: string,',
  '  args: unknown[],',
  '  kwargs: Record<string, unknown> | undefined,',
  '  captures: number,',
  '  json: [sends: boolean, receives: boolean],',
  '): RoutelessSocket<any, any> {',
  "  const parts = template.split('/').filter(Boolean)",
  '  let i = 0',
  "  const path = parts.map((p) => (p.startsWith('{') ? encodeURIComponent(String(args[i++])) : p))",
  '  for (const rest of args.slice(captures)) if (rest !== undefined) path.push(encodeURIComponent(String(rest)))',
  "  const url = new URL('/' + path.join('/'), options.baseUrl)",
  "  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'",
  '  for (const [k, v] of Object.entries(kwargs ?? {}))',
  '    for (const one of Array.isArray(v) ? v : [v])',
  "      if (one !== undefined) url.searchParams.append(k, typeof one === 'object' ? JSON.stringify(one) : String(one))",
  '  const ws = new (options.WebSocket ?? WebSocket)(url) as WebSocket',
  "  ws.binaryType = 'arraybuffer'",
  '  const opened = new Promise<void>((resolve, reject) => {',
  "    ws.addEventListener('open', () => resolve())",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated client's own template literal
  "    ws.addEventListener('error', () => reject(new Error(`The WebSocket ${url} failed`)))",
  '  })',
  '  opened.catch(() => {})',
  '  const closed = new Promise<{ code: number; reason: string }>((resolve) =>',
  "    ws.addEventListener('close', (e) => resolve({ code: e.code, reason: e.reason })),",
  '  )',
  '  return {',
  '    ws,',
  '    opened,',
  '    closed,',
  '    send: (message: unknown) => ws.send(json[0] ? JSON.stringify(message) : (message as Frame)),',
  '    onMessage(listener) {',
  '      const heard = (e: MessageEvent) =>',
  "        listener(json[1] && typeof e.data === 'string' ? JSON.parse(e.data) : e.data)",
  "      ws.addEventListener('message', heard)",
  "      return () => ws.removeEventListener('message', heard)",
  '    },',
  '    close: (code, reason) => ws.close(code, reason),',
  '  }',
  '}',
  '',
]

/** `ClientOptions`' member for sockets. */
export const SOCKET_OPTION = [
  "  /** The WebSocket class `websocket(...)` opens (default: the global one; on Node.js 20, `ws`'s). */",
  '  WebSocket?: new (url: URL) => unknown',
]

/** `websocket`'s arrow function for handler `h`. */
export function renderSocket(h: Handler, defs: Record<string, Schema>): string {
  const types = h.types
  const params: string[] = []
  const names: string[] = []
  const positional = types?.positional ?? h.signature.names.map((name) => ({ name, optional: false, rest: false }))
  positional.forEach((p, i) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(p.name) && p.name !== 'kwargs' ? p.name : `arg${i}`
    const t = 'schema' in p && p.schema ? toType(p.schema as Schema, 0) : 'string | number'
    if (p.rest) {
      params.push(`...${name}: ${t.endsWith('[]') ? t : `(${t})[]`}`)
      names.push(`...${name}`)
    } else {
      params.push(`${name}${p.optional || i >= h.signature.min ? '?' : ''}: ${t}`)
      names.push(name)
    }
  })
  const kwSchema = types?.kwargs?.schema
  if (kwSchema) params.push(`kwargs${required(kwSchema, defs) ? '' : '?'}: ${toType(kwSchema, 0)}`)
  const spread = names.find((n) => n.startsWith('...'))
  const listed = names.filter((n) => !n.startsWith('...')).join(', ')
  const args = spread ? `[${listed}${listed ? ', ' : ''}${spread}]` : `[${listed}]`
  const socket = types?.socket
  const send = socket?.receives ? toType(socket.receives, 0) : 'Frame'
  const receive = socket?.sends ? toType(socket.sends, 0) : 'string | ArrayBuffer'
  const json = `[${!!socket?.receives}, ${!!socket?.sends}]`
  return (
    `(${params.join(', ')}): RoutelessSocket<${send}, ${receive}> => ` +
    `openSocket(options, '${h.path}', ${args}, ${kwSchema ? 'kwargs' : 'undefined'}, ${h.captures}, ${json})`
  )
}

/** Whether the keyword schema requires a member (its named type's, when it names one). */
function required(schema: Schema, defs: Record<string, Schema>): boolean {
  const named = typeof schema.$ref === 'string' ? defs[schema.$ref.slice(8)] : schema
  return (named?.required?.length ?? 0) > 0
}
