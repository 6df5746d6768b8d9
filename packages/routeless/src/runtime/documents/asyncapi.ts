/**
 * AsyncAPI 3.0 generated from the route table (`routeless asyncapi`, `generateAsyncAPI`, `/docs/asyncapi.json`), from
 * the handlers' types and nothing else:
 * - each `WEBSOCKET` handler is a channel per path it answers (`/chat/{room}`: its positional arguments are the
 *   address's parameters), with its keyword arguments as `bindings.ws.query`;
 * - each member of the union it receives (`SocketHandlers<In, Out>`'s `In`) is a message and a `receive` operation,
 *   each member of `Out` a message and a `send` operation (the application's side, as AsyncAPI 3.0 reads them); a
 *   side left raw is one message, `frame`, of any payload;
 * - each event stream (`HandlerTypes.stream`) is a channel the application sends its items on, over HTTP.
 *
 * A message is named as it is told apart on the wire: for its tag (`{ kind: 'heard', … }` → `heard`), for its one key
 * (`{ end_of_stream: {} }` → `end_of_stream`, DeepL's style), else for its named type (`Say`). Schemas are written as AsyncAPI's schema
 * format reads them (JSON Schema draft-07: a tuple's `prefixItems` become `items`), named types under
 * `components.schemas`.
 * @module
 */
import type { HandlerTypes, JsonSchema } from '../contract/manifest.ts'
import { referencedTypes } from '../contract/schema-refs.ts'
import { linked } from './openapi/schemas.ts'
import type { RouteTable } from '../routing/table.ts'
import { templatesOf } from '../routing/templates.ts'
import type { OpenAPIInfo } from './openapi.ts'

export interface AsyncAPIOptions {
  info?: OpenAPIInfo
  /** The servers, as OpenAPI's (`http://…` becomes `ws`, `https://…` becomes `wss`). */
  servers?: { url: string; description?: string }[]
}

type Schema = Record<string, any>

interface Message {
  name: string
  schema: JsonSchema | null
  contentType?: string
}

/** The AsyncAPI 3.0 document of every WebSocket handler and event stream of `table`. */
export function generateAsyncAPI(table: RouteTable, options: AsyncAPIOptions = {}): Record<string, unknown> {
  const defs = table.defs as Record<string, Schema>
  const channels: Record<string, Schema> = {}
  const operations: Record<string, Schema> = {}
  const handlers = [...table.handlers()]
    .filter((h) => h.method === 'WEBSOCKET' || h.types?.stream)
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  for (const h of handlers) {
    const { from, paths } = templatesOf(h)
    paths.forEach((address, k) => {
      const id = unique(lowerCamel(address) + (h.method === 'WEBSOCKET' ? '' : 'Events'), channels)
      const names = h.signature.names.slice(0, from + k)
      const channel: Schema = { address, title: `${h.className}.${h.name}`, messages: {} }
      if (h.types?.doc) channel.description = h.types.doc
      if (names.length) channel.parameters = Object.fromEntries(names.map((n, i) => [n, parameter(h.types, i)]))
      const query = kwargsOf(h.types, defs)
      channels[id] = channel
      const add = (action: 'send' | 'receive', messages: Message[], bindings?: Schema) => {
        for (const m of messages) {
          // One message both ways (a raw frame, an `error` of one shape) is one message of the channel.
          const written = message(m)
          const same = JSON.stringify(channel.messages[m.name]) === JSON.stringify(written)
          const key = same ? m.name : unique(m.name, channel.messages)
          channel.messages[key] = written
          operations[unique(`${action}${upperCamel(id)}${upperCamel(key)}`, operations)] = {
            action,
            channel: { $ref: `#/channels/${id}` },
            messages: [{ $ref: `#/channels/${id}/messages/${key}` }],
            ...(bindings ? { bindings } : {}),
          }
        }
      }
      if (h.method === 'WEBSOCKET') {
        channel.bindings = { ws: { method: 'GET', ...(query ? { query } : {}), bindingVersion: '0.1.0' } }
        add('receive', messagesOf(h.types?.socket?.receives ?? null, defs))
        add('send', messagesOf(h.types?.socket?.sends ?? null, defs))
      } else {
        const http = { method: h.method, ...(query ? { query } : {}), bindingVersion: '0.3.0' }
        add('send', messagesOf(h.types!.stream!.item, defs, h.types!.stream!.mediaType), { http })
      }
    })
  }
  const document: Record<string, unknown> = {
    asyncapi: '3.0.0',
    info: options.info ?? { title: 'routeless application', version: '0.0.0' },
    ...(options.servers?.length ? { servers: servers(options.servers) } : {}),
    defaultContentType: 'application/json',
    channels,
    operations,
  }
  const schemas = used({ channels }, defs)
  if (Object.keys(schemas).length) document.components = { schemas }
  return document
}

/** One message per member of the union `schema` is (a named union seen through); raw frames: one `frame`. */
function messagesOf(schema: JsonSchema | null, defs: Record<string, Schema>, contentType?: string): Message[] {
  if (!schema) return [{ name: 'frame', schema: null }]
  const named = typeof schema.$ref === 'string' ? defs[schema.$ref.slice(8)] : undefined
  const members: Schema[] = schema.anyOf ?? named?.anyOf ?? [schema]
  return members.map((member, i) => ({
    name: nameOf(member, defs) ?? (members.length === 1 ? 'message' : `message${i + 1}`),
    schema: member,
    ...(contentType ? { contentType } : {}),
  }))
}

/**
 * A member's name: its tag's (a `const` string property), its one key's (`{ say: {…} }`: an envelope named for its
 * message, DeepL's style), else its named type's.
 */
function nameOf(member: Schema, defs: Record<string, Schema>): string | undefined {
  const named = typeof member.$ref === 'string' ? member.$ref.slice(8) : undefined
  const schema = named ? defs[named] : member
  if (!schema || schema.anyOf) return undefined
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>)
  const tag = properties.find(([, s]) => typeof s.const === 'string')
  if (!tag && properties.length === 1 && schema.required?.length === 1) return properties[0]![0]
  return tag ? tag[1].const : named
}

function message(m: Message): Schema {
  if (!m.schema) return { name: m.name, title: 'A text or binary frame, as it is sent', payload: {} }
  const title = typeof m.schema.$ref === 'string' ? { title: m.schema.$ref.slice(8) } : {}
  return {
    name: m.name,
    ...title,
    ...(m.contentType ? { contentType: m.contentType } : {}),
    payload: draft07(m.schema),
  }
}

/** A positional argument as a channel parameter (AsyncAPI 3.0 gives parameters no schema: its enum and default). */
function parameter(types: HandlerTypes | undefined, i: number): Schema {
  const schema = types?.positional[i]?.schema as Schema | undefined
  const out: Schema = {}
  if (Array.isArray(schema?.enum)) out.enum = schema.enum.map(String)
  else if (Array.isArray(schema?.anyOf) && schema.anyOf.every((s: Schema) => 'const' in s))
    out.enum = schema.anyOf.map((s: Schema) => String(s.const))
  if (schema && 'default' in schema) out.default = String(schema.default)
  if (typeof schema?.description === 'string') out.description = schema.description
  return out
}

/** The keyword arguments as an object schema (what `bindings.ws.query` and `bindings.http.query` take). */
function kwargsOf(types: HandlerTypes | undefined, defs: Record<string, Schema>): Schema | undefined {
  let schema = types?.kwargs?.schema as Schema | undefined
  if (typeof schema?.$ref === 'string') schema = defs[schema.$ref.slice(8)]
  if (schema?.type !== 'object') return undefined
  return draft07({ ...schema, properties: schema.properties ?? {} })
}

/** A schema in draft-07 form, as AsyncAPI's schema format reads it (`linked`'s, tuples as `items`). */
function draft07<T>(schema: T): T {
  return linked(schema, true)
}

/** The named types the channels refer to, and those they refer to in turn, in draft-07 form, by name. */
function used(root: unknown, defs: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(
    referencedTypes(root, defs)
      .sort()
      .map((name) => [name, draft07(defs[name]!)]),
  )
}

/** OpenAPI's servers as AsyncAPI's: `{ host, protocol, pathname }` by a name of their own. */
function servers(list: NonNullable<AsyncAPIOptions['servers']>): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  list.forEach((s, i) => {
    const url = new URL(s.url)
    out[i === 0 ? 'default' : `server${i + 1}`] = {
      host: url.host,
      protocol: url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss' : 'ws',
      ...(url.pathname !== '/' ? { pathname: url.pathname.replace(/\/$/, '') } : {}),
      ...(s.description ? { description: s.description } : {}),
    }
  })
  return out
}

function lowerCamel(path: string): string {
  const id = upperCamel(path)
  return id[0]!.toLowerCase() + id.slice(1)
}

function upperCamel(text: string): string {
  return (
    text
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('') || 'Root'
  )
}

function unique(id: string, taken: Record<string, unknown>): string {
  let out = id
  for (let i = 2; Object.hasOwn(taken, out); i++) out = `${id}${i}`
  return out
}
