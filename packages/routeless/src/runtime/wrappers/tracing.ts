/**
 * Tracing through `@opentelemetry/api` (an optional peer; its SDK is the application's to start): one SERVER span per
 * request, named `METHOD /template`, with the HTTP semantic-convention attributes, its parent read from the request's
 * `traceparent` by the registered propagator, and made the active span while the lifecycle runs, so instrumentation
 * inside a handler (a database client, `fetch`) nests under it. `telemetry.ts` decides when a span starts and ends.
 * @module
 */
import type * as OtelApi from '@opentelemetry/api'
import type { IncomingRequest } from '../lifecycle/request.ts'
import type { TracerProviderLike } from './telemetry-settings.ts'

export type { TracerProviderLike } from './telemetry-settings.ts'

export type Api = typeof OtelApi

/** Where `start` leaves a request's span and the context it is active in (the telemetry's per-request state). */
export interface SpanSlot {
  span: OtelApi.Span | undefined
  context: OtelApi.Context | undefined
}

/** Spans for the telemetry wrapper, built once at start-up. */
export interface Tracing {
  /**
   * Starts the server span of `incoming` into `slot` (the span, and the context it is active in); `method` is the
   * normalised method (`_OTHER` for an unknown one).
   */
  start(slot: SpanSlot, incoming: IncomingRequest, method: string, route: string | undefined, pathname: string): void
  /** Runs `fn(incoming, env)` with `context` active (`context.with`; no closure per request). */
  run<A, B, T>(context: OtelApi.Context, fn: (a: A, b: B) => T, a: A, b: B): T
  /** Ends the span with the answer's status; `error` is the unhandled error behind a 500, when there was one. */
  end(span: OtelApi.Span, status: number, error: unknown): void
  /** `trace_id` and `span_id` for the request's log line. */
  ids(span: OtelApi.Span): { trace_id: string; span_id: string }
}

/**
 * Reads header fields for the propagator. `keys` lists the fields the registered propagator reads (an
 * `IncomingRequest` does not enumerate its headers without building them all).
 */
function getterOf(api: Api): OtelApi.TextMapGetter<IncomingRequest> {
  return {
    get: (carrier, key) => carrier.header(key) ?? undefined,
    keys: () => api.propagation.fields(),
  }
}

export function createTracing(api: Api, version: string, provider?: TracerProviderLike): Tracing {
  const tracer = ((provider as OtelApi.TracerProvider | undefined) ?? api.trace.getTracerProvider()).getTracer(
    'routeless',
    version,
  )
  const getter = getterOf(api)
  // Most requests name the same Host: its split is remembered.
  let lastHost = ''
  let lastSplit: { address: string | undefined; port: number | undefined } = { address: undefined, port: undefined }
  const SERVER = api.SpanKind.SERVER
  const ERROR = api.SpanStatusCode.ERROR
  const context = api.context
  const propagation = api.propagation
  const setSpan = api.trace.setSpan
  return {
    start(slot, incoming, method, route, pathname) {
      const parent = propagation.extract(context.active(), incoming, getter)
      // The Host header; on the Fetch path a Request may carry none: its URL's authority then.
      const host = incoming.header('host') ?? incoming.url().host
      if (host !== lastHost) {
        lastSplit = host ? splitHost(host) : { address: undefined, port: undefined }
        lastHost = host
      }
      // Every key in one literal, absent values undefined (the SDK records none of them): one shape for every
      // request, built at once, instead of keys added one by one.
      const attributes: OtelApi.Attributes = {
        'http.request.method': method,
        'url.path': pathname,
        'http.route': route,
        'server.address': lastSplit.address,
        'server.port': lastSplit.port,
        'user_agent.original': incoming.header('user-agent') ?? undefined,
        'http.request.method_original': method === '_OTHER' ? incoming.method : undefined,
      }
      // Semantic conventions: `{method} {http.route}`, or `{method}` alone when no route matched (`HTTP` for an
      // unknown method), so that span names stay few.
      const base = method === '_OTHER' ? 'HTTP' : method
      const name = route === undefined ? base : `${base} ${route}`
      const span = tracer.startSpan(name, { kind: SERVER, attributes }, parent)
      slot.span = span
      slot.context = setSpan(parent, span)
    },
    run(active, fn, a, b) {
      return context.with(active, fn, undefined, a, b)
    },
    end(span, status, error) {
      span.setAttribute('http.response.status_code', status)
      // Server spans: 5xx is an error, 4xx is the client's (left unset).
      if (status >= 500) {
        if (error !== undefined) {
          const type = errorType(error)
          span.setAttribute('error.type', type)
          if (error instanceof Error) span.recordException(error)
          span.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) })
        } else {
          span.setAttribute('error.type', String(status))
          span.setStatus({ code: ERROR })
        }
      }
      span.end()
    },
    ids(span) {
      const c = span.spanContext()
      return { trace_id: c.traceId, span_id: c.spanId }
    },
  }
}

/** The error's class name (`TypeError`), as `error.type` wants it; `_OTHER` when it has none. */
function errorType(error: unknown): string {
  if (error instanceof Error) return error.constructor?.name || error.name || '_OTHER'
  return '_OTHER'
}

/** `example.com:8080` → address and port; `[::1]:8080` → `::1` and 8080. */
export function splitHost(host: string): { address: string; port: number | undefined } {
  const v6 = host.startsWith('[') ? host.indexOf(']') : -1
  const colon = host.lastIndexOf(':')
  if (v6 > 0) {
    const port = host[v6 + 1] === ':' ? Number(host.slice(v6 + 2)) : undefined
    return { address: host.slice(1, v6), port: Number.isInteger(port) ? port : undefined }
  }
  if (colon < 0) return { address: host, port: undefined }
  const port = Number(host.slice(colon + 1))
  return { address: host.slice(0, colon), port: Number.isInteger(port) && port > 0 ? port : undefined }
}

/**
 * Whether an SDK registered a tracer provider with the global API: the global provider is a proxy that delegates to
 * the registered one, and has none to delegate to until an SDK registers.
 */
export function tracerRegistered(api: Api): boolean {
  const provider = api.trace.getTracerProvider()
  if (!(provider instanceof api.ProxyTracerProvider)) return true
  return provider.getDelegateTracer('routeless') !== undefined
}
