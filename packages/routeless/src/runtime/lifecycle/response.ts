/**
 * The one place where a handler's return value, or an error, becomes its answer: a `Reply` that the servers write as
 * it is (`fetch-response.ts` makes it a Fetch `Response`), or the handler's own `Response`; and the faithful JSON
 * it is written in.
 * @module
 */
import type { ResponseState } from '../base/controller.ts'
import type { HttpError } from '../base/errors.ts'
import { ANSWER, type Answer as Declared } from '../base/answer.ts'
import { KWARGS_PROTO } from './query.ts'

/**
 * The type of every JSON answer, on every adapter. No `charset`: application/json defines none (RFC 8259 §11: JSON is
 * UTF-8), and this exact value is the one Fetch runtimes answer fastest (Deno.serve's static-response path takes
 * only `application/json` and the text types; Hono's `c.json` sends the same).
 */
export const JSON_TYPE = 'application/json'

/** Header pairs as adapters write them: a `Headers`, or `[name, value]` pairs made once and shared. */
export type HeaderList = Headers | ReadonlyArray<readonly [string, string]>

/**
 * An answer before any Fetch `Response` exists. `Application.handle` returns one (or the `Response` a handler or an
 * error renderer made); `fetch` wraps it in a Response, routeless/uws writes it to the socket as it is.
 */
export interface Reply {
  status: number
  statusText?: string
  /** A `Headers` owned by this reply (the handler's, a copy of an error's), or shared pairs never to be changed. */
  headers: HeaderList | undefined
  /** The `content-type` to send when `headers` has none. */
  type: string | undefined
  /** `null` for no body; a string is sent as UTF-8. */
  body: string | Uint8Array | Blob | ReadableStream<Uint8Array> | null
}

/** What the core answers: a `Reply`, or a `Response` when a handler or a renderer made one. */
export type Answer = Reply | Response

/**
 * `this.response`: the status and headers a handler sets. The `Headers` is only made when the handler touches it,
 * so a handler that sets none costs none.
 */
export class ResponseDraft implements ResponseState {
  // Stored in the constructor: class fields would add an initialiser call per request.
  declare status: number | undefined
  /** The headers, once touched. */
  declare touched: Headers | undefined
  constructor() {
    this.status = undefined
    this.touched = undefined
  }
  get headers(): Headers {
    return (this.touched ??= new Headers())
  }
  set headers(value: Headers) {
    this.touched = value
  }
}

/**
 * Turns a handler's return value into its answer, a `Reply` (or the handler's own `Response`):
 * - a `Response` is sent as is (headers set on `this.response` are added);
 * - `undefined`/`null` → no body (204 unless a status was set);
 * - `Uint8Array`/`ArrayBuffer`/`Blob`/`ReadableStream`/async iterables → streamed bytes;
 * - a generator (sync or async) → a JSON array streamed as it yields (NDJSON when the handler set that content type;
 *   its chunks as they are when the handler set a type that is not JSON); a generator whose first value is bytes
 *   (`Uint8Array`, `ArrayBuffer`) is a byte stream: its chunks go out as they are, as `application/octet-stream`
 *   unless the handler set a type (bytes are never serialised as JSON objects);
 * - anything else (strings included) → JSON, so a returned string arrives in double quotes; a `Set` as an array, a
 *   `Map` with string keys as an object, and what JSON cannot represent faithfully is an error (a 500, logged).
 * `serialize` writes a data value as JSON when the handler's return type was compiled into a serializer.
 */
export function toReply(
  value: unknown,
  state?: ResponseState,
  serialize?: (value: unknown) => string | undefined,
  byStatus?: StatusSerializers,
): Answer {
  // A returned string or plain data with no status or header set (a draft's constructor is read where `instanceof`
  // would walk the prototype chain): small enough for V8's optimising compiler to inline into each handler's code,
  // where the rest (`anyReply`) is not, and would still run in the baseline compiler's code thousands of requests on.
  if (
    state !== undefined &&
    state.constructor === ResponseDraft &&
    (state as ResponseDraft).status === undefined &&
    (state as ResponseDraft).touched === undefined
  ) {
    if (typeof value === 'string')
      return { status: 200, headers: undefined, type: 'application/json' /* JSON_TYPE */, body: quoted(value) }
    if (typeof value === 'object' && value !== null && isPlainData(value))
      return { status: 200, headers: undefined, type: 'application/json' /* JSON_TYPE */, body: json(value, serialize) }
  }
  return anyReply(value, state, serialize, byStatus)
}

/** The last string answered and its JSON: a handler that answers the same string each time quotes it once. */
let lastString = ''
let lastQuoted = '""'

/**
 * A string as JSON. The last short one is kept: comparing a string with it costs a pointer, a length or a short
 * compare, where `JSON.stringify` of a short string costs ~600 instructions (a runtime call, a buffer made and cut to
 * size). A long one is not kept, and the one kept is a copy read back from its JSON: a short string V8 cut from a
 * larger one points into it, and would keep it in memory until the next answer.
 */
function quoted(value: string): string {
  if (value === lastString) return lastQuoted
  const json = JSON.stringify(value)
  if (value.length <= 256) {
    lastQuoted = json
    lastString = JSON.parse(json) as string
  }
  return json
}

/** An object literal or an array: no stream, bytes, iterator or declared answer (written as JSON). */
function isPlainData(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return (
    (proto === Object.prototype || proto === Array.prototype) &&
    (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === undefined &&
    !(Symbol.asyncIterator in value)
  )
}

function anyReply(
  value: unknown,
  state: ResponseState | undefined,
  serialize: ((value: unknown) => string | undefined) | undefined,
  byStatus: StatusSerializers | undefined,
): Answer {
  // (A draft's constructor is read where `instanceof` would walk the prototype chain: this runs for every answer.)
  const headers =
    state === undefined
      ? undefined
      : state.constructor === ResponseDraft
        ? (state as ResponseDraft).touched
        : state.headers
  const status = state?.status
  if (status !== undefined && !(Number.isInteger(status) && status >= 200 && status <= 599)) {
    throw new RangeError(`this.response.status must be an integer from 200 to 599, got ${status}`)
  }
  const noBody = status === 204 || status === 205 || status === 304
  // Strings first: the most common return value.
  if (typeof value === 'string' && !noBody) return jsonReply(status, headers, quoted(value))
  // Plain data (an object literal, an array: no stream, bytes or iterator below) goes straight to JSON.
  if (typeof value === 'object' && value !== null && !noBody && isPlainData(value))
    return jsonReply(status, headers, json(value, serialize))
  // An answer the return type declares (`created(glossary, {location})`): its status, headers and media type.
  if (typeof value === 'object' && value !== null && (value as { [ANSWER]?: unknown })[ANSWER] === true)
    return declaredReply(value as Declared, headers, byStatus)
  if (isResponse(value)) {
    if (!headers) return value
    let out = value
    try {
      for (const [k, v] of headers) if (!out.headers.has(k)) out.headers.set(k, v)
    } catch {
      // Immutable headers (Response.redirect, fetch() results): answer with a copy.
      out = new Response(value.body, value)
      for (const [k, v] of headers) if (!out.headers.has(k)) out.headers.set(k, v)
    }
    return out
  }
  if (value === undefined || value === null || noBody)
    return { status: status ?? 204, headers, type: undefined, body: null }
  if (typeof value === 'object') {
    if (value instanceof Uint8Array) return bytes(value, status, headers, 'application/octet-stream')
    if (value instanceof ArrayBuffer) return bytes(new Uint8Array(value), status, headers, 'application/octet-stream')
    if (value instanceof Blob) return bytes(value, status, headers, value.type || 'application/octet-stream')
    if (value instanceof ReadableStream) return bytes(value, status, headers, 'application/octet-stream')
    if (isGenerator(value)) {
      // JSON unless the handler chose another type (`text/event-stream`, `text/plain`: its chunks go out as they are).
      const type = headers?.get('content-type')
      if (!type || /json/i.test(type)) {
        const reply = bytes(null, status, headers, JSON_TYPE)
        // Bytes as the first value make it a byte stream: the type is settled then (the servers write the head once
        // the first chunk is out of the stream; a Fetch Response's headers are changed then).
        reply.body = jsonStream(value, type ? NDJSON_TYPES.test(type) : false, type ? undefined : reply)
        return reply
      }
    }
    if (Symbol.asyncIterator in value || isGenerator(value))
      return bytes(iterableStream(value as AsyncIterable<unknown>), status, headers, 'application/octet-stream')
  }
  return jsonReply(status, headers, json(value, serialize))
}

/**
 * A data value as JSON: by the handler's return type compiled into a serializer (`compiler/codegen/serializer.ts`), when it
 * has one; it gives up (undefined) on a value its type does not describe, which the checked `JSON.stringify` then
 * writes.
 */
function json(value: unknown, serialize: ((value: unknown) => string | undefined) | undefined): string {
  const body = (serialize !== undefined ? serialize(value) : undefined) ?? stringify(value)
  if (body === undefined) throw new TypeError(`A handler returned a value that is not JSON: ${typeof value}`)
  return body
}

/** The serializers of a handler's declared answers' bodies, by status (`Created<Glossary>`: 201's writes a Glossary). */
export type StatusSerializers = Readonly<Record<number, ((value: unknown) => string | undefined) | undefined>>

/** Media types whose bodies are written as JSON (`application/json`, `application/problem+json`). */
const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i

/** What a `Headers` refuses in a value: a line break would end the header on a server that writes it as it is (uWS). */
const SPLITS_HEADER = /[\r\n\0]/

/** A declared header's value, refused (a 500, as a `Headers` would) when it could split the answer. */
function headerValue(name: string, value: string): string {
  if (SPLITS_HEADER.test(value)) throw new TypeError(`The header "${name}" has a line break or NUL in its value`)
  return value
}

/**
 * A declared answer (`Answer`): its status; its headers over those set on `this.response`; no body for 204, 205, 304
 * or an `undefined` body; else the body as its media type says: JSON (by the serializer of its status), a string as
 * UTF-8 text (`text/*` gets `charset=utf-8`), bytes as they are.
 */
function declaredReply(answer: Declared, draft: Headers | undefined, byStatus: StatusSerializers | undefined): Reply {
  const { status, body } = answer
  // Over the draft's headers when the handler touched them; else as pairs (no `Headers` made: a third of the cost).
  let pairs: [string, string][] | undefined
  const promised = answer.headers as Record<string, unknown>
  for (const name in promised) {
    const v = promised[name]
    if (v === undefined) continue
    if (draft !== undefined) draft.set(name, String(v))
    else (pairs ??= []).push([name.toLowerCase(), headerValue(name, String(v))])
  }
  const headers: HeaderList | undefined = draft ?? pairs
  if (status === 204 || status === 205 || status === 304 || body === undefined)
    return { status, headers, type: undefined, body: null }
  const type = answer.type
  if (type === JSON_TYPE || JSON_MEDIA.test(type))
    return { status, headers, type, body: json(body, byStatus?.[status]) }
  if (typeof body === 'string')
    return { status, headers, type: /^text\/[^;]*$/i.test(type) ? `${type}; charset=utf-8` : type, body }
  if (body instanceof Uint8Array || body instanceof Blob || body instanceof ReadableStream)
    return { status, headers, type, body }
  if (body instanceof ArrayBuffer) return { status, headers, type, body: new Uint8Array(body) }
  throw new TypeError(`An answer of type ${type} needs a string or bytes as its body, got ${typeof body}`)
}

/** A JSON answer. With no status or headers set (nearly every one) its other members are the literal's constants. */
function jsonReply(status: number | undefined, headers: Headers | undefined, body: string): Reply {
  if (status === undefined && headers === undefined)
    return { status: 200, headers: undefined, type: 'application/json' /* JSON_TYPE */, body }
  return { status: status ?? 200, headers, type: JSON_TYPE, body }
}

/** Content types that make a returned generator stream one JSON value per line instead of one JSON array. */
const NDJSON_TYPES = /^\s*application\/(x-ndjson|ndjson|jsonl|x-jsonlines)\s*(;|$)/i

/** Bytes as a handler may yield them: a `Uint8Array` (a Buffer), another typed array's view, an ArrayBuffer. */
function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value
  if (value instanceof ArrayBuffer) return new Uint8Array(value)
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  return undefined
}

/**
 * A stream whose content type is settled by its first value: `typePending` until then, `typed` called then (see
 * `toFetchResponse` in `fetch-response.ts`). A server writes the head of such a stream after its first chunk.
 */
export type TypedLater = ReadableStream<Uint8Array> & { typePending?: boolean; typed?: (type: string) => void }

/**
 * A generator's values as one JSON array (`[a,b]`) or, `ndjson`, one JSON value per line, encoded as they come. When
 * `reply` is given and the first value is bytes, the generator is a byte stream instead: every value must be bytes
 * (or a string, sent as UTF-8) and `reply.type` becomes `application/octet-stream`. Bytes among JSON values fail the
 * stream: they are never serialised as objects (`{"0":120}`).
 */
function jsonStream(
  generator: Iterator<unknown> | AsyncIterator<unknown>,
  ndjson: boolean,
  reply?: Reply,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let first = true
  let raw = false
  const stream: TypedLater = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await generator.next()
      stream.typePending = false
      if (done) {
        if (!ndjson && !raw) controller.enqueue(encoder.encode(first ? '[]' : ']'))
        return controller.close()
      }
      const chunk = asBytes(value)
      if (first && chunk !== undefined && reply !== undefined) {
        raw = true
        reply.type = BYTES_TYPE
        stream.typed?.(BYTES_TYPE)
      }
      const wasFirst = first
      first = false
      if (raw) {
        if (chunk !== undefined) controller.enqueue(chunk)
        else if (typeof value === 'string') controller.enqueue(encoder.encode(value))
        else throw new TypeError('A generator that yields bytes must yield only bytes or strings')
        return
      }
      if (chunk !== undefined)
        throw new TypeError('A generator yielded bytes among JSON values: bytes are never sent as JSON')
      const json = stringify(value) ?? 'null' // as in an array, an undefined element is null
      controller.enqueue(encoder.encode(ndjson ? `${json}\n` : (wasFirst ? '[' : ',') + json))
    },
    async cancel() {
      await generator.return?.(undefined)
    },
  })
  stream.typePending = reply !== undefined
  return stream
}

const BYTES_TYPE = 'application/octet-stream'

function bytes(body: Reply['body'], status: number | undefined, headers: Headers | undefined, type: string): Reply {
  return { status: status ?? 200, headers, type, body }
}

/** The same answer without its body, for HEAD (RFC 9110 §9.3.2: HEAD is GET without the content). */
export function withoutBody(answer: Answer): Answer {
  if (answer instanceof Response) {
    answer.body?.cancel().catch(() => {})
    return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
  }
  if (answer.body instanceof ReadableStream) answer.body.cancel().catch(() => {})
  return answer.body === null ? answer : { ...answer, body: null }
}

function iterableStream(iterable: AsyncIterable<unknown> | Iterable<unknown>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next()
      if (done) return controller.close()
      controller.enqueue(
        typeof value === 'string' ? encoder.encode(value) : (asBytes(value) ?? encoder.encode(stringify(value) ?? '')),
      )
    },
    async cancel(reason) {
      await iterator.return?.(reason)
    },
  })
}

/**
 * The standard error envelope, the same for every framework-made error:
 * `{"status": 404, "error": "Not Found", "message": "…"}` (plus `details` members when given).
 * An `HttpError` carrying its own `body` is rendered like a return value instead.
 */
export function errorReply(error: HttpError): Answer {
  if (error.hasBody) return toReply(error.body, { status: error.status, headers: new Headers(error.headers) })
  let headers: Headers | undefined
  // Copied, never shared: an error object may be thrown again, and the reply's headers may be changed.
  for (const _ of error.headers) {
    headers = new Headers(error.headers)
    headers.delete('content-type')
    break
  }
  return {
    status: error.status,
    statusText: error.statusText,
    headers,
    type: JSON_TYPE,
    body: JSON.stringify(error.toJSON()),
  }
}

/**
 * `JSON.stringify` that never loses data silently: a `Set` becomes an array, a `Map` with string keys an object, and
 * a value JSON cannot represent (a `Map` with other keys, a generator, `NaN`/`Infinity`, a `BigInt`) throws, so the
 * handler's mistake is a logged 500 rather than `{}` or `null` on the wire.
 */
export function stringify(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null)
    return plainScalar(value) ? JSON.stringify(value) : JSON.stringify(value, faithful)
  // JSON.stringify loses a value silently in two ways only: a number that is not finite becomes `null`, and an object
  // it sees no members of (a Map, a Set, a Promise, a generator) becomes `{}`. A text with neither is exact, and
  // searching it costs less than walking the value first; else the walk decides, and only a value that is not plain
  // data (the common case needs no replacer) is written again with the replacer, a call per member.
  const text = JSON.stringify(value)
  if (text === undefined || (!text.includes('null') && !text.includes('{}'))) return text
  return plainData(value, 0) ? text : JSON.stringify(value, faithful)
}

/** True for strings, booleans, null, finite numbers, and plain objects and arrays of them (not too deep). */
function plainData(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return plainScalar(value)
  if (depth > 32) return false
  // Members that are not objects are checked in place: a call per object, not per member.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const member: unknown = value[i]
      if (typeof member === 'object' && member !== null ? !plainData(member, depth + 1) : !plainScalar(member))
        return false
    }
    return true
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null && proto !== KWARGS_PROTO) return false
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key]
    if (typeof member === 'object' && member !== null ? !plainData(member, depth + 1) : !plainScalar(member))
      return false
  }
  return true
}

/** A member that is not an object: anything but a number that is not finite, or a BigInt. */
function plainScalar(value: unknown): boolean {
  return typeof value === 'number' ? value - value === 0 : typeof value !== 'bigint'
}

function faithful(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${where(key)} is ${value}, which JSON cannot represent`)
    return value
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const proto = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null || proto === KWARGS_PROTO) return value
  if (value instanceof Set) return [...value]
  if (value instanceof Map) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of value) {
      if (typeof k !== 'string')
        throw new TypeError(
          `${where(key)} is a Map with a ${typeof k} key, which JSON cannot represent: convert it first`,
        )
      out[k] = v
    }
    return out
  }
  if (value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise || isGenerator(value)) {
    const kind = isGenerator(value)
      ? String((value as unknown as Record<symbol, unknown>)[Symbol.toStringTag])
      : proto.constructor.name
    throw new TypeError(`${where(key)} is a ${kind}, which JSON cannot represent`)
  }
  return value
}

function where(key: string): string {
  return key === '' ? 'The returned value' : `Member "${key}" of the returned value`
}

/** A generator object, sync or async. */
function isGenerator(value: object): value is Iterator<unknown> | AsyncIterator<unknown> {
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag]
  return tag === 'Generator' || tag === 'AsyncGenerator'
}

/**
 * `value instanceof Response` that leaves the global unread for plain data (a Response is never a plain object or an
 * array): on node its first read loads undici, about 25 ms of CPU that an app answering data never needs.
 */
export function isResponse(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null) return false
  const made = (value as object).constructor
  return made !== Object && made !== Array && value instanceof Response
}
