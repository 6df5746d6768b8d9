/**
 * Whether tracing is on is decided once, when the app is created: with `tracing` unset, an SDK registered by then
 * turns it on, and an app created before any SDK never traces (it has no tracing wrapper at all, so it costs
 * nothing). `tracing: true` traces through the global API whenever an SDK registers; `false` never traces;
 * `{ tracerProvider }` uses that provider without any global registration.
 */
import { context, propagation, trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { afterAll, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { fixture } from '../_apps.ts'

const quiet = { error: () => {}, warn: () => {} }
const make = (tracing?: boolean) => createApp(fixture('telemetry'), { logger: quiet, tracing })

afterAll(() => {
  trace.disable()
  context.disable()
  propagation.disable()
})

it('decides at creation: unset traces only when an SDK was registered before; true and false as told', async () => {
  const before = await make()
  const forced = await make(true)
  const exporter = new InMemorySpanExporter()
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  provider.register()
  const after = await make()
  const off = await make(false)

  await before.request('/users/1')
  await off.request('/users/2')
  expect(exporter.getFinishedSpans()).toEqual([])
  await forced.request('/users/3')
  await after.request('/users/4')
  expect(exporter.getFinishedSpans().map((s) => [s.name, s.attributes['url.path']])).toEqual([
    ['GET /users/{id}', '/users/3'],
    ['GET /users/{id}', '/users/4'],
  ])
  await provider.shutdown()
})

it('traces into a provider given as { tracerProvider }, registered nowhere', async () => {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const app = await createApp(fixture('telemetry'), { logger: quiet, tracing: { tracerProvider } })
  expect((await app.request('/users', { method: 'POST', body: new URLSearchParams({ name: 'x' }) })).status).toBe(200)
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['POST /users'])
})
