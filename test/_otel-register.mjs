// `node --import test/_otel-register.mjs …`: what a user's telemetry.mjs does before the CLI starts — registers the
// OpenTelemetry SDK (W3C propagation, AsyncLocalStorage context) exporting over OTLP/HTTP to $OTLP_TEST_URL.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'

const provider = new NodeTracerProvider({
  spanProcessors: [
    new BatchSpanProcessor(new OTLPTraceExporter({ url: `${process.env.OTLP_TEST_URL}/v1/traces` }), {
      scheduledDelayMillis: 50,
    }),
  ],
})
provider.register()
for (const signal of ['SIGINT', 'SIGTERM']) process.prependListener(signal, () => void provider.forceFlush())
