/**
 * The one place where handler return values and errors become a `Response`.
 * @module
 */
import type { ResponseState } from './controller.ts'
import type { HttpError } from './errors.ts'

const JSON_TYPE = 'application/json; charset=utf-8'

/**
 * Turns a handler's return value into a Response:
 * - a `Response` is sent as is (headers set on `this.response` are added);
 * - `undefined`/`null` → no body (204 unless a status was set);
 * - `Uint8Array`/`ArrayBuffer`/`Blob`/`ReadableStream`/async iterables → streamed bytes;
 * - anything else (strings included) → JSON, so a returned string arrives in double quotes.
 */
export function toResponse(value: unknown, state?: ResponseState): Response {
  const headers = state?.headers
  const status = state?.status
  if (value instanceof Response) {
    if (headers) for (const [k, v] of headers) if (!value.headers.has(k)) value.headers.set(k, v)
    return value
  }
  if (value === undefined || value === null || status === 204 || status === 205 || status === 304) {
    return new Response(null, { status: status ?? 204, headers })
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    return bytes(value as BodyInit, status, headers, 'application/octet-stream')
  }
  if (value instanceof Blob) return bytes(value, status, headers, value.type || 'application/octet-stream')
  if (value instanceof ReadableStream) return bytes(value, status, headers, 'application/octet-stream')
  if (typeof value === 'object' && Symbol.asyncIterator in value) {
    return bytes(iterableStream(value as AsyncIterable<unknown>), status, headers, 'application/octet-stream')
  }
  const body = JSON.stringify(value)
  if (body === undefined) throw new TypeError(`A handler returned a value that is not JSON: ${typeof value}`)
  const h = headers ?? new Headers()
  if (!h.has('content-type')) h.set('content-type', JSON_TYPE)
  return new Response(body, { status: status ?? 200, headers: h })
}

function bytes(body: BodyInit, status: number | undefined, headers: Headers | undefined, type: string): Response {
  const h = headers ?? new Headers()
  if (!h.has('content-type')) h.set('content-type', type)
  return new Response(body, { status: status ?? 200, headers: h })
}

function iterableStream(iterable: AsyncIterable<unknown>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const iterator = iterable[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next()
      if (done) return controller.close()
      controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value instanceof Uint8Array ? value : encoder.encode(JSON.stringify(value)))
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
export function errorResponse(error: HttpError): Response {
  const headers = new Headers(error.headers)
  if (error.hasBody) return toResponse(error.body, { status: error.status, headers })
  headers.set('content-type', JSON_TYPE)
  return new Response(JSON.stringify(error.toJSON()), { status: error.status, statusText: error.statusText, headers })
}
