/**
 * End to end: routeless's spans leave the process through the OTLP/HTTP exporter (JSON encoding) and arrive at a
 * receiver started on loopback, which decodes them: one SERVER span per request, named by its template, with its
 * attributes, the resource's service name and routeless as the instrumentation scope.
 */
import { context, propagation, trace } from '@opentelemetry/api'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { afterAll, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { serve } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'
import { fixture } from '../_apps.ts'
import { startReceiver } from '../_otlp-receiver.ts'

const receiver = await startReceiver()
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'otlp-export-test' }),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }))],
})
provider.register()
afterAll(async () => {
  await provider.shutdown()
  trace.disable()
  context.disable()
  propagation.disable()
  await receiver.close()
})

it('sends each request’s server span over OTLP/HTTP to a real endpoint, from node:http and uWS', async () => {
  const app = await createApp(fixture('telemetry'), { logger: { error: () => {} } })
  for (const [name, start] of [
    ['node', serve],
    ['uws', serveUws],
  ] as const) {
    const server = await start(app, { host: '127.0.0.1', port: 0 })
    try {
      const res = await fetch(`${server.url}/users/7/posts/9`, { headers: { 'user-agent': `e2e-${name}` } })
      expect(res.status).toBe(200)
      expect((await fetch(`${server.url}/fail`)).status).toBe(500)
    } finally {
      await server.close()
    }
  }
  await provider.forceFlush()
  const received = await receiver.waitFor((s) => s.name === 'GET /users/{id}/posts/{post}')
  expect(received.map((s) => s.attributes['user_agent.original']).sort()).toEqual(['e2e-node', 'e2e-uws'])
  for (const span of received) {
    expect(span).toMatchObject({
      kind: 2,
      encoding: 'json',
      resource: { 'service.name': 'otlp-export-test' },
      scope: { name: 'routeless', version: '0.1.0' },
      status: { code: 0 },
    })
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/{id}/posts/{post}',
      'http.response.status_code': 200,
      'url.path': '/users/7/posts/9',
      'server.address': '127.0.0.1',
    })
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/)
  }
  const failed = await receiver.waitFor((s) => s.name === 'GET /fail')
  expect(failed).toHaveLength(2)
  for (const span of failed) {
    expect(span.status.code).toBe(2) // ERROR
    expect(span.attributes['error.type']).toBe('TypeError')
    expect(span.events[0]).toMatchObject({ name: 'exception', attributes: { 'exception.message': 'boom' } })
  }
})
