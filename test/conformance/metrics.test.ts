/**
 * Metrics on every way of serving: after traffic, `/metrics` shows the request duration histogram and the requests in
 * flight by method, route template and status in Prometheus's text format — never a raw path; every path no
 * controller answers under one empty route label.
 */
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { createApp, RoutelessError } from 'routeless'
import { fixture } from '../_apps.ts'
import { describeTargets } from '../_targets.ts'

const quiet = { error: () => {}, warn: () => {} }

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** Parses Prometheus's text format: one sample per line that is not a comment. */
function parse(text: string): Sample[] {
  const out: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1')
    out.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return out
}

function find(samples: Sample[], name: string, labels: Record<string, string>): Sample | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}

const releaseSlow = () => (globalThis as { releaseSlow?: () => void }).releaseSlow?.()

describeTargets(
  'Metrics',
  () => createApp(fixture('telemetry'), { logger: quiet, tracing: false, metrics: { registry: new Registry() } }),
  (t) => {
    it('counts request durations by method, route template and status, never by raw path', async () => {
      for (const path of ['/users/7', '/users/8', '/users/9', '/users', '/nope/a', '/other/b/c', '/fail/teapot'])
        await (await t().request(path)).arrayBuffer()
      const post = await t().request('/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"a"}',
      })
      expect(post.status).toBe(200)
      await post.arrayBuffer()
      const res = await t().request('/metrics')
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      const text = await res.text()
      const samples = parse(text)
      const count = (labels: Record<string, string>) =>
        find(samples, 'http_server_request_duration_seconds_count', labels)?.value
      expect(count({ http_request_method: 'GET', http_route: '/users/{id}', http_response_status_code: '200' })).toBe(3)
      expect(count({ http_request_method: 'GET', http_route: '/users', http_response_status_code: '200' })).toBe(1)
      expect(count({ http_request_method: 'POST', http_route: '/users', http_response_status_code: '200' })).toBe(1)
      expect(count({ http_request_method: 'GET', http_route: '/fail/teapot', http_response_status_code: '418' })).toBe(
        1,
      )
      // Both unknown paths fold into one series.
      expect(count({ http_request_method: 'GET', http_route: '', http_response_status_code: '404' })).toBe(2)
      expect(text).not.toMatch(/\/users\/7|\/nope|\/other/)
      // The histogram's buckets are cumulative, in seconds, and end with +Inf holding every request.
      const buckets = samples.filter(
        (s) =>
          s.name === 'http_server_request_duration_seconds_bucket' &&
          s.labels.http_route === '/users/{id}' &&
          s.labels.http_request_method === 'GET',
      )
      expect(buckets.map((b) => b.labels.le)).toEqual([
        '0.005',
        '0.01',
        '0.025',
        '0.05',
        '0.075',
        '0.1',
        '0.25',
        '0.5',
        '0.75',
        '1',
        '2.5',
        '5',
        '7.5',
        '10',
        '+Inf',
      ])
      expect(buckets.at(-1)!.value).toBe(3)
      const sum = find(samples, 'http_server_request_duration_seconds_sum', { http_route: '/users/{id}' })!.value
      expect(sum).toBeGreaterThan(0)
      expect(sum).toBeLessThan(3)
    })

    it('shows the requests in flight by method and route', async () => {
      const pending = t().request('/slow')
      let inFlight: number | undefined
      for (let i = 0; i < 100 && inFlight !== 1; i++) {
        await new Promise((r) => setTimeout(r, 10))
        const samples = parse(await (await t().request('/metrics')).text())
        inFlight = find(samples, 'http_server_active_requests', {
          http_request_method: 'GET',
          http_route: '/slow',
        })?.value
      }
      expect(inFlight).toBe(1)
      releaseSlow()
      expect(await (await pending).json()).toBe('done')
      const after = parse(await (await t().request('/metrics')).text())
      expect(find(after, 'http_server_active_requests', { http_route: '/slow' })?.value).toBe(0)
    })

    it('answers HEAD and OPTIONS at the metrics path, a trailing slash too, and 405 with Allow for other methods', async () => {
      const head = await t().request('/metrics', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
      expect((await t().request('/metrics/')).status).toBe(200)
      const options = await t().request('/metrics', { method: 'OPTIONS' })
      expect(options.status).toBe(204)
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
      for (const method of ['POST', 'DELETE', 'PUT']) {
        const res = await t().request('/metrics', { method, body: method === 'DELETE' ? undefined : 'x' })
        expect(res.status).toBe(405)
        expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
        expect(await res.json()).toEqual({
          status: 405,
          error: 'Method Not Allowed',
          message: `${method} is not allowed on /metrics`,
        })
      }
      // The scrapes themselves are not counted.
      const samples = parse(await (await t().request('/metrics')).text())
      expect(samples.some((s) => s.labels.http_route === '/metrics')).toBe(false)
    })
  },
)

describe('The metrics option', () => {
  const app = (metrics: unknown) =>
    createApp(fixture('telemetry'), { logger: quiet, metrics: metrics as { path: string } })
  it('serves another path when asked, and leaves /metrics to the controllers', async () => {
    const a = await app({ path: '/_ops/metrics', registry: new Registry() })
    expect((await a.request('/_ops/metrics')).status).toBe(200)
    expect((await a.request('/metrics')).status).toBe(404)
  })
  it('refuses a path that is not absolute, ends with a slash or that a controller answers', async () => {
    for (const [path, message] of [
      ['metrics', /must be an absolute path/],
      ['/metrics/', /without a trailing slash/],
      ['/metrics?x', /must be an absolute path/],
      ['/users', /also answered by a controller \(GET \/users\)/],
      ['/users/7', /also answered by a controller \(GET \/users\/\{id\}\)/],
    ] as const) {
      const error = await app({ path, registry: new Registry() }).catch((e: unknown) => e)
      expect(error, path).toBeInstanceOf(RoutelessError)
      expect((error as RoutelessError).code).toBe('ROUTELESS_ERR_TELEMETRY')
      expect((error as Error).message).toMatch(message)
    }
  })
  it('counts under the new templates once watch mode swaps the route table', async () => {
    const registry = new Registry()
    const first = await createApp(
      {
        modules: {
          items: {
            Default: class {
              GET(id = '') {
                return id
              }
            },
          },
        },
      },
      { types: 'off', metrics: { registry } },
    )
    await first.request('/items/seven')
    const second = await createApp(
      {
        modules: {
          items: {
            Seven: class {
              GET() {
                return 7
              }
            },
          },
        },
      },
      { types: 'off', tracing: false },
    )
    first.replaceTable(second.table)
    await first.request('/items/seven') // the same path, now another handler's
    const samples = parse(await (await first.request('/metrics')).text())
    const count = (route: string) => find(samples, 'http_server_request_duration_seconds_count', { http_route: route })
    expect(count('/items/{id}')?.value).toBe(1)
    expect(count('/items/seven')?.value).toBe(1)
  })
  it('refuses a registry that has another metric of its name', async () => {
    const { Histogram } = await import('prom-client')
    const registry = new Registry()
    new Histogram({ name: 'http_server_request_duration_seconds', help: 'theirs', registers: [registry] })
    await expect(app({ registry })).rejects.toThrow(
      'the registry already has a metric named http_server_request_duration_seconds',
    )
  })
  it('records into prom-client’s global registry by default, beside the application’s own metrics', async () => {
    const { register, Counter } = await import('prom-client')
    new Counter({ name: 'app_jobs_total', help: 'Jobs done.' }).inc(2)
    const a = await app(true)
    await a.request('/users/1')
    const b = await app(true) // a second app in the process shares the instruments
    await b.request('/users/2')
    const samples = parse(await (await a.request('/metrics')).text())
    expect(find(samples, 'app_jobs_total', {})?.value).toBe(2)
    expect(find(samples, 'http_server_request_duration_seconds_count', { http_route: '/users/{id}' })?.value).toBe(2)
    register.clear()
  })
})
