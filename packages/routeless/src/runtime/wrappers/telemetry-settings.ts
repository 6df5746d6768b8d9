/**
 * The telemetry options' types, with no type of an optional peer (`prom-client`, `@opentelemetry/api`): routeless's
 * declarations reach this file from the app options, so a consumer without the peers installed type-checks with
 * `skipLibCheck: false` (`metrics.ts` and `tracing.ts`, which use the peers' types, stay out of that reach).
 * @module
 */

/** The `metrics` app option as an object. */
export interface MetricsOptions {
  /** Where the registry is exposed (default `/metrics`): GET and HEAD answer it, other methods 405. */
  path?: string
  /**
   * The prom-client registry to register into and expose (default: prom-client's global `register`, so that
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

/** What `tracing` accepts as a provider: the SDK's `TracerProvider` (structurally, so no peer type leaks out). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string): unknown
}
