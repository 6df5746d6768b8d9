/**
 * OpenTelemetry for the examples, started by their `main.ts` before the app is created (routeless traces when an SDK
 * registered a tracer provider by then): on when one of the standard variables asks for it —
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, `OTEL_TRACES_EXPORTER` or `OTEL_SERVICE_NAME` —
 * and off (nothing loaded) otherwise or with `OTEL_SDK_DISABLED=true`. The SDK reads the rest of the variables
 * itself (protocol, headers, sampler, resource attributes …). Metrics go to the app's `/metrics` (prom-client), so the
 * SDK's own OTLP metrics and logs are off unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` say otherwise; the
 * process's default metrics (CPU, memory, event loop lag) are added to `/metrics`.
 */
import { collectDefaultMetrics, register } from 'prom-client'

export interface Telemetry {
  /** Whether traces are exported (an SDK was started). */
  tracing: boolean
  /** Flushes what is buffered and stops the SDK (call it after the server drained). */
  shutdown(): Promise<void>
}

/** The variables whose presence turns tracing on. */
export const TRACING_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_SERVICE_NAME',
] as const

/** Starts the SDK when the environment asks for tracing; `service` names the service when OTEL_SERVICE_NAME does not. */
export async function startTelemetry(service: string, env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  if (!register.getSingleMetric('process_cpu_seconds_total')) collectDefaultMetrics()
  const wanted = TRACING_VARIABLES.some((name) => env[name]) && env.OTEL_TRACES_EXPORTER !== 'none'
  if (!wanted || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true')
    return { tracing: false, shutdown: async () => {} }
  env.OTEL_METRICS_EXPORTER ??= 'none'
  env.OTEL_LOGS_EXPORTER ??= 'none'
  const { NodeSDK } = await import('@opentelemetry/sdk-node')
  const sdk = new NodeSDK(env.OTEL_SERVICE_NAME ? {} : { serviceName: service })
  sdk.start()
  return { tracing: true, shutdown: () => sdk.shutdown() }
}
