// routeless on node:http (routeless/node) with tracing (the SDK, a no-op exporter) and metrics (prom-client) on.
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { serve } from 'routeless/node'
import { host, port, ready } from './_common.mjs'
import { startNoopTracing } from './_telemetry.mjs'

startNoopTracing()
const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)), { metrics: true })
const server = await serve(app, { host, port })
ready(server.port)
