/**
 * An answer as a Fetch `Response`: what `app.fetch`, the Bun server and the Fetch wrappers hand their host, and the
 * headers a wrapper reads or sets on an answer of either form.
 * @module
 */
import type { ResponseState } from '../base/controller.ts'
import type { HttpError } from '../base/errors.ts'
import {
  errorReply,
  isResponse,
  JSON_TYPE,
  toReply,
  type Answer,
  type HeaderList,
  type TypedLater,
} from './response.ts'

/** A handler's return value as a Fetch `Response`, by the rules of `toReply`. */
export function toResponse(value: unknown, state?: ResponseState): Response {
  return toFetchResponse(toReply(value, state))
}

/** Wraps a `Reply` in a Fetch `Response` (a `Response` passes through). */
export function toFetchResponse(answer: Answer): Response {
  if (answer instanceof Response) return answer
  const body = answer.body as TypedLater | null
  // The common answer (no headers but its type, a body in memory) is made in one step, as Hono's `c.json` makes it.
  if (answer.headers === undefined && !(body instanceof ReadableStream)) {
    const init: ResponseInit =
      answer.type === undefined
        ? { status: answer.status }
        : { status: answer.status, headers: { 'content-type': answer.type } }
    if (answer.statusText !== undefined) init.statusText = answer.statusText
    return new Response(answer.body as BodyInit | null, init)
  }
  const headers =
    answer.headers instanceof Headers ? answer.headers : new Headers(answer.headers as [string, string][] | undefined)
  if (answer.type !== undefined && !headers.has('content-type')) headers.set('content-type', answer.type)
  const response = new Response(answer.body as BodyInit | null, {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  })
  if (body instanceof ReadableStream && answer.type === JSON_TYPE && headers.get('content-type') === JSON_TYPE)
    body.typed = (type) => response.headers.set('content-type', type)
  return response
}

/** A framework-made error as a Fetch `Response`: the standard error envelope of `errorReply`. */
export function errorResponse(error: HttpError): Response {
  return toFetchResponse(errorReply(error))
}

/** A header of `answer` (any case), or null. */
export function headerOf(answer: Answer, name: string): string | null {
  const headers = answer.headers
  if (headers === undefined) return null
  if (!isPairs(headers)) return headers.get(name)
  const lower = name.toLowerCase()
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v
  return null
}

/**
 * `answer` with `entries` set (each replacing a header of its name). A reply's shared header pairs are copied, and a
 * Response's immutable headers, never changed. Neither a `Headers` nor a `Response` is made for a reply: on node the
 * first use of either loads node's fetch (undici, ~40 ms on node 20, inside the first request's time).
 */
export function withHeaders(answer: Answer, entries: ReadonlyArray<readonly [string, string]>): Answer {
  if (entries.length === 0) return answer
  if (isResponse(answer)) {
    try {
      for (const [k, v] of entries) answer.headers.set(k, v)
      return answer
    } catch {
      const copy = new Response(answer.body, answer)
      for (const [k, v] of entries) copy.headers.set(k, v)
      return copy
    }
  }
  const headers = answer.headers
  if (headers !== undefined && !isPairs(headers)) {
    for (const [k, v] of entries) headers.set(k, v) // the reply's own
    return answer
  }
  // The entries' names in lower case, as a `Headers` gives them (the adapters write pairs as they are).
  const names = entries.map(([k]) => k.toLowerCase())
  const pairs: [string, string][] = []
  if (headers) for (const [k, v] of headers) if (!names.includes(k.toLowerCase())) pairs.push([k, v])
  for (let i = 0; i < entries.length; i++) pairs.push([names[i]!, entries[i]![1]])
  return { ...answer, headers: pairs }
}

/** Header pairs, not a `Headers` (told apart without reading the global `Headers`, which would load undici). */
function isPairs(headers: HeaderList): headers is ReadonlyArray<readonly [string, string]> {
  return Array.isArray(headers)
}
