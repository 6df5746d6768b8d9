/**
 * Tracing on every way of serving: one SERVER span per request, named by the route template, with the HTTP
 * semantic-convention attributes, its parent from `traceparent`, active while the handler runs, and its ids in the
 * access log line. The SDK (a NodeTracerProvider with the in-memory exporter) is registered before the app is
 * created, so the app's default (`tracing` unset) turns tracing on.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { afterAll, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createLogger } from 'routeless'
import { fixtureApp } from '../_apps.ts'
import { describeTargets, skipWhere } from '../_targets.ts'

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
provider.register()
afterAll(async () => {
  await provider.shutdown()
  trace.disable()
  context.disable()
})

const lines: Record<string, unknown>[] = []
const logger = createLogger({ level: 'info', format: 'json', write: (l) => lines.push(JSON.parse(l)) })

/** The server spans of requests to `path` (url.path), oldest first. */
function serverSpans(path: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === path)
}

/** The one server span of a request made with a fresh trace id, found by that id. */
async function traced(
  request: (headers: Record<string, string>) => Promise<Response>,
): Promise<{ span: ReadableSpan; response: Response; body: string; traceId: string; parentId: string }> {
  const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')
  const parentId = 'b7ad6b7169203331'
  const response = await request({ traceparent: `00-${traceId}-${parentId}-01`, 'user-agent': 'telemetry-test/1.0' })
  const body = await response.text()
  const spans = exporter
    .getFinishedSpans()
    .filter((s) => s.kind === SpanKind.SERVER && s.spanContext().traceId === traceId)
  expect(spans).toHaveLength(1)
  return { span: spans[0]!, response, body, traceId, parentId }
}

describeTargets('Tracing', fixtureApp('telemetry', { accessLog: true, logger }), (t) => {
  it('names one server span per request by its route template, with the HTTP attributes', async () => {
    const { span, traceId, parentId } = await traced((headers) => t().request('/users/7?fields=name', { headers }))
    expect(span.name).toBe('GET /users/{id}')
    expect(span.kind).toBe(SpanKind.SERVER)
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/users/{id}',
      'http.response.status_code': 200,
      'url.path': '/users/7',
      'user_agent.original': 'telemetry-test/1.0',
    })
    expect(span.attributes['server.address']).toBe(t().url ? '127.0.0.1' : 'localhost')
    if (t().url) expect(span.attributes['server.port']).toBe(Number(new URL(t().url!).port))
    expect(span.attributes['error.type']).toBeUndefined()
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
    // The parent is the caller's, from traceparent.
    expect(span.spanContext().traceId).toBe(traceId)
    expect(span.parentSpanContext?.spanId).toBe(parentId)
  })

  it('names sub-resources and optional parts by the template that answered', async () => {
    expect((await traced((headers) => t().request('/users/7/posts/9', { headers }))).span.name).toBe(
      'GET /users/{id}/posts/{post}',
    )
    expect((await traced((headers) => t().request('/users', { headers }))).span.name).toBe('GET /users')
    const post = await traced((headers) =>
      t().request('/users', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"name":"a"}',
      }),
    )
    expect(post.span.name).toBe('POST /users')
    expect(post.span.attributes['http.response.status_code']).toBe(200)
  })

  it('names a path no controller answers by its method alone, without http.route', async () => {
    const { span } = await traced((headers) => t().request('/no/such/thing', { headers }))
    expect(span.name).toBe('GET')
    expect(span.attributes['http.route']).toBeUndefined()
    // Not recorded at all (not even as a key without a value), nor the original method of a known one.
    expect(Object.keys(span.attributes)).not.toContain('http.route')
    expect(Object.keys(span.attributes)).not.toContain('http.request.method_original')
    expect(span.attributes['url.path']).toBe('/no/such/thing')
    expect(span.attributes['http.response.status_code']).toBe(404)
    expect(span.status.code).toBe(SpanStatusCode.UNSET)
  })

  it('marks an unhandled error as the span error, with its type and the exception', async () => {
    const { span, response } = await traced((headers) => t().request('/fail', { headers }))
    expect(response.status).toBe(500)
    expect(span.name).toBe('GET /fail')
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' })
    expect(span.attributes['error.type']).toBe('TypeError')
    expect(span.events.find((e) => e.name === 'exception')?.attributes?.['exception.message']).toBe('boom')
  })

  it('marks a 5xx HttpError as an error typed by its status, and leaves a 4xx unset', async () => {
    const busy = await traced((headers) => t().request('/fail/busy', { headers }))
    expect(busy.response.status).toBe(503)
    expect(busy.span.status.code).toBe(SpanStatusCode.ERROR)
    expect(busy.span.attributes['error.type']).toBe('503')
    const teapot = await traced((headers) => t().request('/fail/teapot', { headers }))
    expect(teapot.response.status).toBe(418)
    expect(teapot.span.status.code).toBe(SpanStatusCode.UNSET)
    expect(teapot.span.attributes['error.type']).toBeUndefined()
  })

  it('keeps the span active while the handler runs, across its awaits', async () => {
    const { span, body } = await traced((headers) => t().request('/nested', { headers }))
    const seen = JSON.parse(body) as { active: { traceId: string; spanId: string }; child: string }
    expect(seen.active).toEqual({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId })
    const child = exporter
      .getFinishedSpans()
      .find((s) => s.name === 'child work' && s.spanContext().traceId === span.spanContext().traceId)
    expect(child?.spanContext().spanId).toBe(seen.child)
    expect(child?.parentSpanContext?.spanId).toBe(span.spanContext().spanId)
  })

  it('writes the trace and span ids in the request log line', async () => {
    const { span } = await traced((headers) =>
      t().request('/users/42', { headers: { ...headers, 'x-request-id': `log-${t().name}` } }),
    )
    const line = lines.find((l) => l.request_id === `log-${t().name}`)
    expect(line).toMatchObject({
      msg: 'request',
      status: 200,
      trace_id: span.spanContext().traceId,
      span_id: span.spanContext().spanId,
    })
  })

  it('counts an unknown method under _OTHER, with its original', async (ctx) => {
    if (t().name === 'uws') return ctx.skip() // uWS closes the connection on methods outside RFC 9110 (docs/runtimes.md)
    const response = await t().request('/users', { method: 'PURGE' })
    expect(response.status).toBe(501)
    const span = serverSpans('/users').find((s) => s.attributes['http.request.method_original'] === 'PURGE')
    expect(span?.name).toBe('HTTP')
    expect(span?.attributes['http.request.method']).toBe('_OTHER')
  })

  it('gives a WebSocket upgrade its span, 101 when accepted and the refusal status when not', async (ctx) => {
    if (!t().url) return ctx.skip() // in-process fetch has no sockets
    skipWhere(t(), 'websockets', ctx)
    const ws = new WebSocket(`${t().url!.replace('http', 'ws')}/room/lobby`)
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (m) => resolve(m.toString()))
      ws.once('error', reject)
    })
    expect(first).toBe('joined lobby')
    ws.close()
    const accepted = serverSpans('/room/lobby').at(-1)
    expect(accepted?.name).toBe('GET /room/{name}')
    expect(accepted?.attributes['http.response.status_code']).toBe(101)
    const refused = new WebSocket(`${t().url!.replace('http', 'ws')}/room/closed`)
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_q, res) => resolve(res.statusCode!)),
    )
    expect(status).toBe(500)
    const failed = serverSpans('/room/closed').at(-1)
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR)
    expect(failed?.attributes['error.type']).toBe('Error')
  })
})
