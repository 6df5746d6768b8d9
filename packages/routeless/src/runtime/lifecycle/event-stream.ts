/**
 * Server-sent events: a handler typed to return an async iterable of `Sse` events (`compiler/analysis/stream-types.ts`) answers
 * `text/event-stream` (or `application/jsonl`, one event as JSON per line, where the client's `Accept` prefers it).
 * Each event is written as it comes, its data by the compiled serializer of its type; the next one is asked of the
 * generator only once the server took the last (backpressure); a comment goes out when the generator is idle (the
 * heartbeat), and the generator's `return()` is called when the client goes away. An error (the generator threw, an
 * event cannot be written: an `id` with a line break) is logged and ends the stream where it is.
 * @module
 */
import type { Call } from './call.ts'
import { stringify } from './json.ts'
import type { Answer } from './response.ts'

/**
 * One server-sent event. `data` is sent as JSON (a string as it is, each of its lines a `data:` line); `event` names
 * it (`message` when absent); `id` is what a reconnecting client sends back as `Last-Event-ID`; `retry` tells the
 * client how many milliseconds to wait before reconnecting. A union of events with fixed names
 * (`Sse<Progress, 'progress'> | Sse<Done, 'done'>`) documents each with its own data type.
 */
export interface Sse<D = unknown, E extends string = string> {
  data: D
  event?: E
  id?: string
  /** @integer */
  retry?: number
}

export const EVENT_STREAM_TYPE = 'text/event-stream'
export const JSONL_TYPE = 'application/jsonl'

/** The default idle time before a heartbeat comment, in milliseconds. */
export const DEFAULT_HEARTBEAT = 15_000

/** What a stream handler's reply uses (`runtime/lifecycle/handler-shape.ts` makes it from the handler's types). */
export interface StreamParts {
  /** The serializer of each event's data, by event name (`''`: events whose name the type does not fix). */
  data: Record<string, ((value: unknown) => string) | undefined>
  /** The serializer of a whole event (a JSON line). */
  item: ((value: unknown) => string) | undefined
  /** Milliseconds of idle before a heartbeat comment (0: none). */
  heartbeat: number
  /** Development: the check of each event against its type, and where a mismatch is reported. */
  check: ((event: unknown) => string | undefined) | undefined
  report: ((message: string) => void) | undefined
  /** Where an error that ends the stream is logged (the generator threw, or an event cannot be written). */
  fail: ((error: unknown) => void) | undefined
}

/**
 * A stream handler's keyword `lastEventId`: the `Last-Event-ID` header, over the query's `lastEventId` (the query holds
 * where a first connection resumes; `EventSource` keeps that URL and sends the newer position in the header).
 */
export function lastEventId(call: Call): void {
  const id = call.incoming.header('last-event-id')
  if (id !== null) call.kwargs.lastEventId = id
}

/** The answer of a stream handler: its events, as the client's `Accept` asks. */
export function streamReply(value: unknown, call: Call, parts: StreamParts): Answer {
  const iterator = iteratorOf(value)
  const jsonl = prefersJsonl(call.incoming.header('accept'))
  const headers = call.response.touched ?? new Headers()
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache')
  // nginx buffers a proxied answer unless told not to.
  if (!headers.has('x-accel-buffering')) headers.set('x-accel-buffering', 'no')
  const type = jsonl ? JSONL_TYPE : EVENT_STREAM_TYPE
  headers.set('content-type', type)
  const encode = jsonl ? (event: unknown) => jsonLine(event, parts) : (event: unknown) => eventText(event, parts)
  return {
    status: call.response.status ?? 200,
    headers,
    type,
    body: eventStream(iterator, encode, jsonl ? 0 : parts.heartbeat, parts, call.env.waitUntil),
  }
}

/** A returned async iterable (a generator): the stream of a handler that answers either data or a stream. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value
}

function iteratorOf(value: unknown): AsyncIterator<unknown> {
  if (typeof value === 'object' && value !== null) {
    if (Symbol.asyncIterator in value) return (value as AsyncIterable<unknown>)[Symbol.asyncIterator]()
    if (Symbol.iterator in value)
      return (async function* () {
        yield* value as Iterable<unknown>
      })()
  }
  throw new TypeError(`A server-sent event handler must return an async iterable of events, got ${typeof value}`)
}

/** Whether `accept` ranks `application/jsonl` above `text/event-stream` (by `q`; ties go to server-sent events). */
export function prefersJsonl(accept: string | null): boolean {
  if (accept === null) return false
  let jsonl = -1
  let sse = -1
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase())
    const qParam = params.find((p) => p.startsWith('q='))
    const q = qParam === undefined ? 1 : Number(qParam.slice(2)) || 0
    if (range === JSONL_TYPE || range === 'application/x-ndjson') jsonl = Math.max(jsonl, q)
    else if (range === EVENT_STREAM_TYPE) sse = Math.max(sse, q)
    else if (range === '*/*' || range === 'text/*') sse = Math.max(sse, q)
  }
  return jsonl > 0 && jsonl > sse
}

// Marked pure: a bundle whose handlers stream nothing keeps neither.
const encoder = /* @__PURE__ */ new TextEncoder()
const HEARTBEAT = /* @__PURE__ */ encoder.encode(':\n\n')

/**
 * The events as bytes. Pulled one by one (`highWaterMark: 0`): the generator is asked for the next event only when
 * the server reads, after it wrote the last. While the generator is idle, a heartbeat comment every `heartbeat` ms.
 */
function eventStream(
  iterator: AsyncIterator<unknown>,
  encode: (event: unknown) => string,
  heartbeat: number,
  parts: StreamParts,
  waitUntil: unknown,
): ReadableStream<Uint8Array> {
  let count = 0
  let timer: ReturnType<typeof setInterval> | undefined
  let ended = false
  // On a Workers-style host the request's context lives on until the generator finished (its `finally` ran), even
  // once the client left: without it, a generator awaiting a timer when the client goes would never resume.
  let settle = () => {}
  if (typeof waitUntil === 'function') waitUntil(new Promise<void>((resolve) => (settle = resolve)))
  const finish = (returned: Promise<unknown> | undefined) => {
    if (returned) returned.then(settle, settle)
    else settle()
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = iterator.next()
        if (heartbeat > 0)
          timer = setInterval(() => {
            try {
              if (!ended) controller.enqueue(HEARTBEAT)
            } catch {
              clearInterval(timer) // the stream ended meanwhile
            }
          }, heartbeat)
        let result: IteratorResult<unknown>
        let text: string
        try {
          result = await next
          if (ended) return
          if (result.done) {
            ended = true
            settle()
            return controller.close()
          }
          text = encode(result.value)
        } catch (error) {
          // The stream ends where the error is, cleanly (what was sent stays whole), and the error is logged. A
          // generator that threw has finished; one whose event cannot be written is ended here.
          ended = true
          finish(iterator.return?.(undefined))
          parts.fail?.(error)
          return controller.close()
        } finally {
          clearInterval(timer)
        }
        count++
        if (parts.check) {
          const problem = parts.check(result.value)
          if (problem) {
            const message = `event ${count} does not match its type: ${problem}`
            parts.report?.(message)
            text = `: routeless: ${message.replace(/[\r\n]+/g, ' ')}\n${text}`
          }
        }
        controller.enqueue(encoder.encode(text))
      },
      cancel() {
        ended = true
        clearInterval(timer)
        // An async generator suspended in an `await` runs its `finally` once that await settles.
        finish(iterator.return?.(undefined))
      },
    },
    { highWaterMark: 0 },
  )
}

/** One event as `text/event-stream` text: its fields, its data as `data:` lines, a blank line. */
function eventText(value: unknown, parts: StreamParts): string {
  if (typeof value !== 'object' || value === null)
    throw new TypeError(`A server-sent event must be an object ({ data, event?, id?, retry? }), got ${typeof value}`)
  const { data, event, id, retry } = value as Sse
  let out = ''
  if (event !== undefined) out += `event: ${field('event', event)}\n`
  if (id !== undefined) {
    if (String(id).includes('\0')) throw new TypeError('A server-sent event id cannot hold a NUL character')
    out += `id: ${field('id', id)}\n`
  }
  if (retry !== undefined) {
    if (!Number.isInteger(retry) || retry < 0)
      throw new TypeError(`A server-sent event's retry must be a non-negative integer, got ${retry}`)
    out += `retry: ${retry}\n`
  }
  if (data !== undefined) {
    const serialize = (event !== undefined && parts.data[event]) || parts.data['']
    const text = typeof data === 'string' ? data : (serialize?.(data) ?? json(data))
    for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`
  }
  return `${out}\n`
}

/** An `event` or `id` value: a string without line breaks (the line would end the field). */
function field(name: string, value: unknown): string {
  const text = String(value)
  if (/[\r\n]/.test(text))
    throw new TypeError(`A server-sent event's ${name} cannot hold a line break: ${JSON.stringify(text)}`)
  return text
}

/** One event as a line of `application/jsonl`. */
function jsonLine(value: unknown, parts: StreamParts): string {
  return `${parts.item?.(value) ?? json(value)}\n`
}

function json(value: unknown): string {
  const text = stringify(value)
  if (text === undefined) throw new TypeError(`A server-sent event's data is not JSON: ${typeof value}`)
  return text
}
