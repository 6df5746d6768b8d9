/**
 * HTTP server metrics exposed through `prom-client` (an optional peer): `http_server_request_duration_seconds`, a
 * histogram of each request's duration in seconds, and `http_server_active_requests`, a gauge of those in flight —
 * the Prometheus names of OpenTelemetry's `http.server.request.duration` and `http.server.active_requests` —
 * labelled by method, route template and status (never the raw path: a path no controller answers is the one
 * `http_route=""`, so the number of series stays bounded by the route table).
 *
 * A request is counted in routeless's own series (a map look-up and a few additions); the two are registered in the
 * prom-client registry as metrics whose `get()` reports those series when scraped, in prom-client's own format, so
 * that a request does not pay prom-client's per-observation label hashing (about 8 µs a request, measured).
 * @module
 */
import type * as PromClient from 'prom-client'
import { HttpError } from '../base/errors.ts'
import type { IncomingRequest } from '../lifecycle/request.ts'
import { errorReply, withoutBody, type Answer } from '../lifecycle/response.ts'
import type { MetricsOptions } from './telemetry-settings.ts'

export type { MetricsOptions, RegistryLike } from './telemetry-settings.ts'

export type Prom = typeof PromClient

/** The duration buckets OpenTelemetry advises for `http.server.request.duration`, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

const DURATION = 'http_server_request_duration_seconds'
const ACTIVE = 'http_server_active_requests'

/** The label a request without a matching route is counted under. */
export const NO_ROUTE = ''

/** One method and route: its requests in flight, and its durations by status. */
export interface RouteSeries {
  method: string
  route: string
  active: number
  byStatus: Map<number, { buckets: Float64Array; sum: number; count: number }>
}

/** The instruments, and the exposition, built once at start-up. */
export interface Metrics {
  readonly path: string
  /** One more request in flight; the series to `end` it on. */
  begin(method: string, route: string | undefined): RouteSeries
  /** That request answered with `status` after `seconds`. */
  end(series: RouteSeries, status: number, seconds: number): void
  /** The answer at `path`. */
  expose(incoming: IncomingRequest): Promise<Answer> | Answer
}

/** Every series, by method then route; shared by the applications of one registry. */
type Store = Map<string, Map<string, RouteSeries>>

const STORE = Symbol.for('routeless.metrics.store')

export function createMetrics(prom: Prom, options: MetricsOptions, onError: (error: unknown) => void): Metrics {
  const path = options.path ?? '/metrics'
  const registry = (options.registry ?? prom.register) as PromClient.Registry
  const store = storeIn(registry)
  const allow: [string, string][] = [['Allow', 'GET, HEAD, OPTIONS']]
  return {
    path,
    begin(method, route = NO_ROUTE) {
      let byRoute = store.get(method)
      if (byRoute === undefined) store.set(method, (byRoute = new Map()))
      let series = byRoute.get(route)
      if (series === undefined) byRoute.set(route, (series = { method, route, active: 0, byStatus: new Map() }))
      series.active++
      return series
    },
    end(series, status, seconds) {
      series.active--
      let h = series.byStatus.get(status)
      if (h === undefined)
        series.byStatus.set(status, (h = { buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 }))
      let i = 0
      while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++
      h.buckets[i]!++
      h.sum += seconds
      h.count++
    },
    expose(incoming) {
      const method = incoming.method
      if (method === 'OPTIONS') return { status: 204, headers: allow, type: undefined, body: null }
      if (method !== 'GET' && method !== 'HEAD')
        return errorReply(new HttpError(405, `${method} is not allowed on ${path}`, { headers: allow }))
      return registry.metrics().then(
        (text): Answer => {
          const answer: Answer = { status: 200, headers: undefined, type: registry.contentType, body: text }
          return method === 'HEAD' ? withoutBody(answer) : answer
        },
        (error: unknown) => {
          onError(error)
          return errorReply(new HttpError(500, 'The metrics could not be collected'))
        },
      )
    },
  }
}

/** The registry's series: registered with its two metrics the first time, found on them after. */
function storeIn(registry: PromClient.Registry): Store {
  const existing = registry.getSingleMetric(DURATION) as { [STORE]?: Store } | undefined
  if (existing !== undefined) {
    const found = existing[STORE]
    if (found === undefined) throw new RangeError(`metrics: the registry already has a metric named ${DURATION}`)
    return found
  }
  const store: Store = new Map()
  const each = function* () {
    for (const byRoute of store.values()) yield* byRoute.values()
  }
  const metric = (name: string, type: 'histogram' | 'gauge', help: string, values: () => unknown[]) => ({
    name,
    help,
    type,
    aggregator: 'sum',
    [STORE]: store,
    get: () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => store.clear(),
  })
  const duration = metric(DURATION, 'histogram', 'Duration of HTTP server requests, in seconds.', () => {
    const out: unknown[] = []
    for (const s of each()) {
      for (const [status, h] of s.byStatus) {
        const labels = { http_request_method: s.method, http_route: s.route, http_response_status_code: String(status) }
        let cumulative = 0
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += h.buckets[i]!
          out.push({ labels: { ...labels, le }, value: cumulative, metricName: `${DURATION}_bucket` })
        })
        out.push({ labels: { ...labels, le: '+Inf' }, value: h.count, metricName: `${DURATION}_bucket` })
        out.push({ labels, value: h.sum, metricName: `${DURATION}_sum` })
        out.push({ labels, value: h.count, metricName: `${DURATION}_count` })
      }
    }
    return out
  })
  const active = metric(ACTIVE, 'gauge', 'Number of HTTP server requests in flight.', () =>
    [...each()].map((s) => ({ labels: { http_request_method: s.method, http_route: s.route }, value: s.active })),
  )
  registry.registerMetric(duration as unknown as PromClient.Metric)
  registry.registerMetric(active as unknown as PromClient.Metric)
  return store
}
