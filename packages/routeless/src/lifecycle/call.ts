/**
 * Internal to application.ts: one request's call of a handler — what travels with it (`Call`), the controller
 * instance's lazy `request`/`url`, the binding of arguments by schemas or types, and the argument list.
 * @module
 */
import type { Kwargs } from '../app/controller.ts'
import type { IncomingRequest } from './request.ts'
import type { Resolution } from '../routing/resolver.ts'
import type { Handler, RouteTable } from '../routing/table.ts'

/** One request on its way through the core. */
export interface Call {
  r: Extract<Resolution, { kind: 'match' }>
  incoming: IncomingRequest
  pathname: string
  env: Record<string, unknown>
  kwargs: Kwargs
  /** The decoded JSON body, when the body was JSON (its members are not coerced from strings). */
  json?: unknown
}

/** No keywords at all (a request without a query). */
export function isEmpty(kwargs: Kwargs): boolean {
  for (const _ in kwargs) return false
  return true
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/** Where a controller instance keeps the request it answers (read by the lazy `request` and `url`). */
export const INCOMING = Symbol('routeless.incoming')

/** Every class that has at least one handler. */
export function controllerClasses(table: RouteTable): Set<Function> {
  const out = new Set<Function>()
  for (const handler of table.handlers()) out.add(handler.cls)
  return out
}

/**
 * `this.request` and `this.url` are built on first use from what the adapter gave, so a controller that never
 * reads them never costs a Fetch `Request` or a `URL`. Installed once per controller class at start-up; a class that
 * has either member itself (or inherits one) keeps it. Assigning either replaces it on that instance.
 */
export function installLazyMembers(cls: Function): void {
  const proto = cls.prototype as object
  const members: [string, (incoming: IncomingRequest) => unknown][] = [
    ['request', (i) => i.request()],
    ['url', (i) => i.url()],
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

/** The handler's arguments as its schemas (`params`) or its types convert them; `this.kwargs` is the converted object. */
export async function bind(
  handler: Handler,
  args: string[],
  kwargs: Kwargs,
  controller: InstanceType<Handler['cls']>,
  json?: unknown,
): Promise<{ args: unknown[]; kwargs: Kwargs }> {
  const bound = handler.binder
    ? await handler.binder(args, kwargs)
    : handler.typed
      ? handler.typed(args, kwargs, json)
      : { args, kwargs }
  controller.kwargs = bound.kwargs
  controller.args = bound.args
  return bound
}

/** Positional parts in order; the kwargs object after the positional slots when the handler asks for it. */
export function callArguments(args: unknown[], kwargs: Kwargs, sig: { slots: number; kwargs: boolean }): unknown[] {
  if (!sig.kwargs) return args
  const out: unknown[] = args.slice()
  while (out.length < sig.slots) out.push(undefined)
  out.push(kwargs)
  return out
}

/** A Content-Length other than 0, or a Transfer-Encoding: the request has a body (checked for GET only). */
export function declaresBody(incoming: IncomingRequest): boolean {
  if (incoming.hasBody !== undefined) return incoming.hasBody() // the adapter read the framing headers already
  if (incoming.header('transfer-encoding') !== null) return true
  const length = incoming.header('content-length')
  return length !== null && length !== '0'
}
