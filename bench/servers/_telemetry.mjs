// Tracing and metrics on, for the cost measurement: the OpenTelemetry SDK (NodeTracerProvider: sampling, span
// creation, the batch processor's queue) with an exporter that drops every batch, registered before the app is
// created so routeless traces; and prom-client metrics (the app's `metrics: true`, scraped by nobody).
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'

/** An exporter that accepts every batch and sends nothing. */
const noopExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
  forceFlush: async () => {},
}

export function startNoopTracing() {
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(noopExporter)] })
  provider.register()
  return provider
}
