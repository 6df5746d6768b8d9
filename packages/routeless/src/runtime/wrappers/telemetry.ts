/**
 * The telemetry wrapper: tracing (`tracing.ts`) and metrics (`metrics.ts`) around the lifecycle, and the metrics
 * path. Which of them runs is decided once, at start-up (`createTelemetry` returns undefined when neither is on, and
 * the wrapper is then not in the chain at all): with neither configured a request does no extra work.
 *
 * A request's route template is resolved once, before the lifecycle runs, so the span is named and labelled before
 * the handler starts (samplers see `http.route`) and the metrics count it under the same template.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import { otelRegistered } from '../base/otel-global.ts'
import type { IncomingRequest } from '../lifecycle/request.ts'
import type { Answer } from '../lifecycle/response.ts'
import type { UpgradeDecision } from '../lifecycle/websocket.ts'
import type * as OtelApi from '@opentelemetry/api'
import { createMetrics, type Prom, type RouteSeries } from './metrics.ts'
import type { MetricsOptions, TracerProviderLike } from './telemetry-settings.ts'
import { createTracing, tracerRegistered, type Api, type SpanSlot } from './tracing.ts'
import type { Wrapper } from './types.ts'
import { routeOf as templateRoute } from '../routing/templates.ts'
import type { RouteTable } from '../routing/table.ts'

/** The `tracing` app option. */
export type TracingOption = boolean | { tracerProvider?: TracerProviderLike }
/** The `metrics` app option. */
export type MetricsOption = boolean | MetricsOptions

/**
 * The optional peers, imported at start-up (`loadTelemetryPeers`) when an option needs them: the modules of
 * `@opentelemetry/api` and `prom-client`, opaque here so that no type of an optional peer reaches routeless's own
 * declarations (a consumer without them installed type-checks with `skipLibCheck: false`).
 */
export interface TelemetryPeers {
  api?: object
  prom?: object
}

/** What the application gives the telemetry. */
export interface TelemetryContext {
  /**
   * The route table now (watch mode swaps it): requests are counted under its templates (`runtime/routing/templates.ts`'s
   * `routeOf`), and the templates remembered for the previous one are forgotten.
   */
  table(): RouteTable
  /** Whether the access log is on (its line then carries the trace and span ids). */
  accessLog: boolean
  /** routeless's version (the tracer's). */
  version: string
  /** Where a failure of the metrics' own collection is reported. */
  onError(error: unknown): void
}

/** What runs around the core, the upgrade decision and the access log when telemetry is on. */
export interface Telemetry {
  wrapper: Wrapper
  upgrade(decide: Decide): Decide
  /** Where the core reports an unhandled error (the 500's cause, for the span). */
  unhandled(incoming: IncomingRequest, error: unknown): void
  /** The trace and span ids of a request, for its log line (undefined when it has no span). */
  logFields: ((incoming: IncomingRequest) => Record<string, unknown> | undefined) | undefined
}

type Decide = (incoming: IncomingRequest, env: Record<string, unknown>) => Promise<UpgradeDecision>

/** The methods the semantic conventions name; any other is counted as `_OTHER`, so that labels stay bounded. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY'])

function methodOf(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER'
}

/**
 * The optional peers' names, held in constants so that a bundler (`routeless build --target=worker`, esbuild) leaves
 * their imports to run time instead of requiring them installed: a bundle whose app turns neither option on never
 * loads them.
 */
const OTEL_API = '@opentelemetry/api'
const PROM_CLIENT = 'prom-client'

/**
 * Imports the optional peers the options need. `tracing` unset: on when `@opentelemetry/api` is installed and an SDK
 * registered a tracer provider before the app was created; `true`: on (an SDK registered later is used from then on).
 */
export async function loadTelemetryPeers(options: {
  tracing?: TracingOption
  metrics?: MetricsOption
}): Promise<TelemetryPeers> {
  const peers: TelemetryPeers = {}
  const tracing = options.tracing
  // Left to detection, tracing is on only when an SDK registered something through the API, which keeps its registry
  // on a global: without it, the API is not imported at all (start-up pays nothing for tracing it does not do).
  if (tracing !== false && (tracing !== undefined || otelRegistered())) {
    const api = await importPeer<Api>(() => import(/* @vite-ignore */ OTEL_API), OTEL_API, tracing !== undefined)
    if (api && (tracing !== undefined || tracerRegistered(api))) peers.api = api
  }
  if (options.metrics) {
    const prom = (await importPeer<Prom>(() => import(/* @vite-ignore */ PROM_CLIENT), PROM_CLIENT, true))!
    // prom-client is CommonJS: where a loader gives its exports as the default export only, use that.
    peers.prom = prom.Histogram === undefined ? (prom as unknown as { default: Prom }).default : prom
  }
  return peers
}

/**
 * An optional peer, imported. Not `required` (tracing left to detection): undefined when it cannot be imported at all
 * (not installed; a runtime without it, as a Worker bundle). `required`: a `ROUTELESS_ERR_TELEMETRY` naming the
 * package to install when it is missing, and any other failure of its import as it is.
 */
export async function importPeer<T>(load: () => Promise<T>, name: string, required: boolean): Promise<T | undefined> {
  try {
    return await load()
  } catch (cause) {
    if (!required) return undefined
    const code = (cause as { code?: string }).code
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw cause
    throw new RoutelessError(
      'ROUTELESS_ERR_TELEMETRY',
      `${name === PROM_CLIENT ? 'metrics' : 'tracing'} needs the optional peer ${name}: npm i ${name}`,
      { cause },
    )
  }
}

/** The telemetry the options ask for, or undefined when neither tracing nor metrics is on. */
export function createTelemetry(
  options: { tracing?: TracingOption; metrics?: MetricsOption },
  peers: TelemetryPeers,
  app: TelemetryContext,
): Telemetry | undefined {
  if (options.tracing && !peers.api)
    throw new RoutelessError('ROUTELESS_ERR_TELEMETRY', 'tracing: build the application with createApp()')
  if (options.metrics && !peers.prom)
    throw new RoutelessError('ROUTELESS_ERR_TELEMETRY', 'metrics: build the application with createApp()')
  const tracing = peers.api
    ? createTracing(
        peers.api as Api,
        app.version,
        typeof options.tracing === 'object' ? options.tracing.tracerProvider : undefined,
      )
    : undefined
  const metrics =
    options.metrics && peers.prom
      ? createMetrics(peers.prom as Prom, options.metrics === true ? {} : options.metrics, app.onError)
      : undefined
  if (!tracing && !metrics) return undefined
  if (metrics) checkPath(metrics.path, app)
  const routeOf = rememberRoutes(app)
  const failures = new WeakMap<IncomingRequest, unknown>()
  const spans = tracing && app.accessLog ? new WeakMap<IncomingRequest, OtelApi.Span>() : undefined
  const exposed = metrics?.path
  const exposedSlash = exposed && `${exposed}/`

  /** Starts what is on for one request: its state, which `finish` ends with the answer's status. */
  const begin = (incoming: IncomingRequest, method: string, route: string | undefined, pathname: string) => {
    const r = new InFlight(incoming)
    if (metrics) {
      r.started = performance.now()
      r.series = metrics.begin(method, route)
    }
    if (tracing) {
      tracing.start(r, incoming, method, route, pathname)
      if (spans) spans.set(incoming, r.span!)
    }
    return r
  }
  const finish = (r: InFlight, status: number) => {
    if (r.span !== undefined) tracing!.end(r.span, status, status >= 500 ? failures.get(r.incoming) : undefined)
    if (r.series !== undefined) metrics!.end(r.series, status, (performance.now() - r.started) / 1000)
  }
  const failed = (r: InFlight, error: unknown) => {
    failures.set(r.incoming, error)
    finish(r, 500)
  }

  return {
    wrapper: (next) => (incoming, env) => {
      const target = incoming.target
      const q = target.indexOf('?')
      const pathname = q < 0 ? target : target.slice(0, q)
      if (pathname === exposed || pathname === exposedSlash) return metrics!.expose(incoming)
      const method = incoming.method
      // `WEBSOCKET` as an HTTP method token names no handler (the core answers 501), never the upgrade handler.
      const route = routeOf(method === 'WEBSOCKET' ? '_OTHER' : method, pathname)
      const r = begin(incoming, methodOf(method), route, pathname)
      let answer: Answer | Promise<Answer>
      try {
        answer = r.context !== undefined ? tracing!.run(r.context, next, incoming, env) : next(incoming, env)
      } catch (error) {
        failed(r, error)
        throw error
      }
      if (!(answer instanceof Promise)) {
        finish(r, answer.status)
        return answer
      }
      return answer.then(
        (answer) => {
          finish(r, answer.status)
          return answer
        },
        (error: unknown) => {
          failed(r, error)
          throw error
        },
      )
    },
    upgrade: (decide) => async (incoming, env) => {
      const target = incoming.target
      const q = target.indexOf('?')
      const pathname = q < 0 ? target : target.slice(0, q)
      // An upgrade is a GET (RFC 6455 §4.1); its route is the WEBSOCKET handler's.
      const r = begin(incoming, 'GET', routeOf('WEBSOCKET', pathname), pathname)
      try {
        const decision = await (r.context !== undefined
          ? tracing!.run(r.context, decide, incoming, env)
          : decide(incoming, env))
        finish(r, decision.accepted ? 101 : decision.response.status)
        return decision
      } catch (error) {
        failed(r, error)
        throw error
      }
    },
    unhandled: (incoming, error) => void failures.set(incoming, error),
    logFields: spans
      ? (incoming) => {
          const span = spans.get(incoming)
          return span && tracing!.ids(span)
        }
      : undefined,
  }
}

/**
 * One request in flight: its span and the context it is active in (tracing), its series and start (metrics). One
 * object of one shape per request, instead of closures.
 */
class InFlight implements SpanSlot {
  span: OtelApi.Span | undefined = undefined
  context: OtelApi.Context | undefined = undefined
  series: RouteSeries | undefined = undefined
  started = 0
  constructor(readonly incoming: IncomingRequest) {}
}

/** How many paths' templates are remembered (then forgotten all at once, and remembered again as they come). */
const REMEMBERED = 4096

/**
 * The route template of a request (`runtime/routing/templates.ts`'s `routeOf`), remembered by method and path: the core
 * resolves each request too, and resolving it a second time (splitting and decoding the path) is what the telemetry
 * would otherwise cost most, after the SDK. Bounded, so that paths carrying ids (`/users/7`, `/users/8` …) cost a
 * resolution each and no memory beyond the bound.
 */
function rememberRoutes(app: TelemetryContext): (method: string, pathname: string) => string | undefined {
  let table = app.table()
  let byMethod = new Map<string, Map<string, string | null>>()
  let size = 0
  return (method, pathname) => {
    const now = app.table()
    if (now !== table || size >= REMEMBERED) {
      table = now
      byMethod = new Map()
      size = 0
    }
    let paths = byMethod.get(method)
    if (paths === undefined) byMethod.set(method, (paths = new Map()))
    const known = paths.get(pathname)
    if (known !== undefined) return known ?? undefined
    const route = templateRoute(now, method, pathname)
    paths.set(pathname, route ?? null)
    size++
    return route
  }
}

/** The metrics path: absolute, and answered by no controller (it would never be reached). */
function checkPath(path: string, app: TelemetryContext): void {
  if (!/^\/[^?#\s]*$/.test(path) || (path.length > 1 && path.endsWith('/')))
    throw new RoutelessError(
      'ROUTELESS_ERR_TELEMETRY',
      `metrics.path must be an absolute path without a trailing slash (like /metrics), got "${path}"`,
    )
  const route = templateRoute(app.table(), 'GET', path)
  if (route !== undefined)
    throw new RoutelessError(
      'ROUTELESS_ERR_TELEMETRY',
      `metrics.path ${path} is also answered by a controller (GET ${route}): choose another path`,
    )
}
