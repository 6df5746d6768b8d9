/**
 * HTTP server metrics through `prom-client` (an optional peer): `http_server_request_duration_seconds`, a histogram
 * of each request's duration in seconds, and `http_server_active_requests`, a gauge of those in flight — the
 * Prometheus names of OpenTelemetry's `http.server.request.duration` and `http.server.active_requests`, labelled by
 * method, route template and status (never the raw path: a path no controller answers is the one `http_route=""`,
 * so the number of series stays bounded by the route table). The registry is exposed in Prometheus's text format on
 * the opt-in path (`telemetry.ts` answers it).
 * @module
 */
import type * as PromClient from 'prom-client'
import { HttpError } from '../app/errors.ts'
import type { IncomingRequest } from '../lifecycle/request.ts'
import { errorReply, withoutBody, type Answer } from '../lifecycle/response.ts'

export type Prom = typeof PromClient

/** The `metrics` app option as an object. */
export interface MetricsOptions {
  /** Where the registry is exposed (default `/metrics`): GET and HEAD answer it, other methods 405. */
  path?: string
  /**
   * The prom-client registry to record into and expose (default: prom-client's global `register`, so that
   * `collectDefaultMetrics()` and the application's own metrics are exposed beside routeless's).
   */
  registry?: RegistryLike
}

/** A prom-client `Registry`, structurally (so that no type of the optional peer leaks into routeless's own). */
export interface RegistryLike {
  metrics(): Promise<string>
  readonly contentType: string
  getSingleMetric(name: string): unknown
}

/** The duration buckets OpenTelemetry advises for `http.server.request.duration`, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

const DURATION = 'http_server_request_duration_seconds'
const ACTIVE = 'http_server_active_requests'

/** The label a request without a matching route is counted under. */
export const NO_ROUTE = ''

/** The instruments, and the exposition, built once at start-up. */
export interface Metrics {
  readonly path: string
  /** One more request in flight. */
  begin(method: string, route: string | undefined): void
  /** That request answered with `status` after `seconds`. */
  end(method: string, route: string | undefined, status: number, seconds: number): void
  /** The answer at `path`. */
  expose(incoming: IncomingRequest): Promise<Answer> | Answer
}

export function createMetrics(prom: Prom, options: MetricsOptions, onError: (error: unknown) => void): Metrics {
  const path = options.path ?? '/metrics'
  const registry = (options.registry ?? prom.register) as PromClient.Registry
  // Two applications in one process (tests, a second app on another port) share the instruments of a registry.
  const duration =
    (registry.getSingleMetric(DURATION) as PromClient.Histogram | undefined) ??
    new prom.Histogram({
      name: DURATION,
      help: 'Duration of HTTP server requests, in seconds.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    })
  const active =
    (registry.getSingleMetric(ACTIVE) as PromClient.Gauge | undefined) ??
    new prom.Gauge({
      name: ACTIVE,
      help: 'Number of HTTP server requests in flight.',
      labelNames: ['http_request_method', 'http_route'],
      registers: [registry],
    })
  const allow: [string, string][] = [['Allow', 'GET, HEAD, OPTIONS']]
  return {
    path,
    begin(method, route) {
      active.inc({ http_request_method: method, http_route: route ?? NO_ROUTE })
    },
    end(method, route, status, seconds) {
      const http_route = route ?? NO_ROUTE
      active.dec({ http_request_method: method, http_route })
      duration.observe({ http_request_method: method, http_route, http_response_status_code: String(status) }, seconds)
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
