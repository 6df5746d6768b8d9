/**
 * One request's call of a handler: what travels through its function (`Call`), the controller instance's lazy
 * members, and what the function asks of the request.
 * @module
 */
import type { Kwargs } from '../base/controller.ts'
import type { Resolution } from '../routing/resolver.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import { RequestHeaders } from '../base/headers.ts'
import type { IncomingRequest } from './request.ts'
import type { ResponseDraft } from './response.ts'

/** One request on its way through its handler's function (`compiler/codegen/handler-code.ts`). */
export interface Call {
  /** What the route table resolved the request to: its handler, the path's arguments, whether it is a HEAD. */
  resolution: Extract<Resolution, { kind: 'match' }>
  incoming: IncomingRequest
  env: Record<string, unknown>
  /** Keyword arguments: the query's, then the body's fields on top; converted by the bind stage. */
  kwargs: Kwargs
  /** Positional arguments: the path parts, converted by the bind stage. */
  args: unknown[]
  /** The decoded JSON body, when the body was JSON (its members are not coerced from strings). */
  json?: unknown
  /** The controller instance (made by the construct stage). */
  controller: InstanceType<Handler['cls']>
  /** The controller's `this.response`: the status and headers the handler sets (made by the construct stage). */
  response: ResponseDraft
}

/** No keywords at all (a request without a query). */
export function isEmpty(kwargs: Kwargs): boolean {
  for (const _ in kwargs) return false
  return true
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/** Where a controller instance keeps the request it answers (read by the lazy `request`, `url` and `headers`). */
export const INCOMING = Symbol('routeless.incoming')
/** Where a request keeps its header reader once made (cookies are parsed once per request). */
const HEADERS = Symbol('routeless.headers')

/** Every class that has at least one handler. */
export function controllerClasses(table: RouteTable): Set<Function> {
  const out = new Set<Function>()
  for (const handler of table.handlers()) out.add(handler.cls)
  return out
}

/**
 * `this.request`, `this.url` and `this.headers` are built on first use from what the adapter gave, so a controller
 * that never reads them never costs a Fetch `Request`, a `URL` or a header reader. Installed once per controller
 * class at start-up; a class that has one of these members itself (or inherits one) keeps it. Assigning one replaces
 * it on that instance.
 */
export function installLazyMembers(cls: Function): void {
  const proto = cls.prototype as object
  const members: [string, (incoming: IncomingRequest & { [HEADERS]?: RequestHeaders }) => unknown][] = [
    ['request', (i) => i.request()],
    ['url', (i) => i.url()],
    ['headers', (i) => (i[HEADERS] ??= new RequestHeaders(i))],
  ]
  for (const [name, make] of members) {
    if (name in proto) continue
    Object.defineProperty(proto, name, {
      configurable: true,
      get(this: Record<PropertyKey, unknown>) {
        const incoming = this[INCOMING] as IncomingRequest | undefined
        return incoming === undefined ? undefined : make(incoming)
      },
      set(this: object, value: unknown) {
        Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true })
      },
    })
  }
}

/** A Content-Length other than 0, or a Transfer-Encoding: the request has a body (checked for GET only). */
export function declaresBody(incoming: IncomingRequest): boolean {
  if (incoming.hasBody !== undefined) return incoming.hasBody() // the adapter read the framing headers already
  if (incoming.header('transfer-encoding') !== null) return true
  const length = incoming.header('content-length')
  return length !== null && length !== '0'
}
