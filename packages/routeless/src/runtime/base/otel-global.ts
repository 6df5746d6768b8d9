/**
 * Where `@opentelemetry/api` 1.x keeps what an SDK registered (its `global-utils.ts`): a symbol on the global object.
 * Its presence is how routeless tells, without importing the API, that tracing was set up before the app.
 * @module
 */
const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/** Whether an SDK registered something through `@opentelemetry/api` 1.x in this realm. */
export function otelRegistered(): boolean {
  return OTEL_GLOBAL in globalThis
}
