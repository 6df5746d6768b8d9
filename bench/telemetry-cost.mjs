#!/usr/bin/env node
/**
 * `node bench/telemetry-cost.mjs`: the in-process cost of tracing and metrics per request — `app.handle` on a
 * prepared request, no sockets — with neither, metrics only, tracing only (the SDK with a no-op exporter,
 * `servers/_telemetry.mjs`) and both; and the **SDK floor**: the calls routeless's tracing makes to the SDK
 * (`propagation.extract`, `startSpan` with the same attributes, `trace.setSpan`, `context.with`, the status
 * attribute, `span.end`) written by hand around the app with neither, which is what any integration of the SDK pays.
 * "both" minus "SDK floor" is routeless's own part (the template look-up, the span's name and attributes, metrics).
 *
 * One process (a registered SDK is process-wide: with tracing off, an app never calls it), the configurations
 * interleaved round after round, each measured as the process's CPU time (`process.cpuUsage`) over its requests,
 * and the minimum over the rounds reported, so that another process's load on the machine counts least.
 * Options: --requests=20000 (per configuration and round) --rounds=30 --path=/hello
 */
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { startNoopTracing } from './servers/_telemetry.mjs'

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split(/=(.*)/s).slice(0, 2)))
const requests = Number(args.requests ?? 20_000)
const rounds = Number(args.rounds ?? 30)
const target = args.path ?? '/hello'

startNoopTracing()
const api = await import('@opentelemetry/api')
const controllers = fileURLToPath(new URL('./controllers', import.meta.url))
const apps = {
  neither: await createApp(controllers, { tracing: false }),
  metrics: await createApp(controllers, { tracing: false, metrics: true }),
  tracing: await createApp(controllers, { tracing: true }),
  both: await createApp(controllers, { tracing: true, metrics: true }),
}
const bare = apps.neither
// The template's text costs nothing more than the path's: the path stands for it.
const pathname = target.split('?')[0]
const tracer = api.trace.getTracer('sdk-floor')
const getter = { get: (carrier, key) => carrier.header(key) ?? undefined, keys: () => api.propagation.fields() }
apps['SDK floor'] = {
  handle(incoming, env) {
    const parent = api.propagation.extract(api.context.active(), incoming, getter)
    const attributes = {
      'http.request.method': 'GET',
      'url.path': pathname,
      'http.route': pathname,
      'server.address': '127.0.0.1',
      'server.port': 8000,
      'user_agent.original': 'bench',
    }
    const span = tracer.startSpan(`GET ${pathname}`, { kind: api.SpanKind.SERVER, attributes }, parent)
    const settle = (answer) => {
      span.setAttribute('http.response.status_code', answer.status)
      span.end()
      return answer
    }
    const answer = api.context.with(api.trace.setSpan(parent, span), bare.handle, bare, incoming, env)
    return answer instanceof Promise ? answer.then(settle) : settle(answer)
  },
}

const headers = new Map([
  ['host', '127.0.0.1:8000'],
  ['user-agent', 'bench'],
])
const incoming = {
  method: 'GET',
  target,
  header: (name) => headers.get(name) ?? null,
  body: () => null,
  request: () => new Request(`http://127.0.0.1:8000${target}`),
  url: () => new URL(`http://127.0.0.1:8000${target}`),
}
const run = async (app, n) => {
  for (let i = 0; i < n; i++) {
    const answer = app.handle({ ...incoming }, {})
    if (answer instanceof Promise) await answer
    // Let the batch processor's timers and exports run, as they would between a server's requests.
    if ((i & 1023) === 0) await new Promise(setImmediate)
  }
}

const names = Object.keys(apps)
for (const name of names) await run(apps[name], 20_000) // warm-up
const best = {}
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + r) % names.length]
    const before = process.cpuUsage()
    await run(apps[name], requests)
    const used = process.cpuUsage(before)
    best[name] = Math.min(best[name] ?? Infinity, (used.user + used.system) / requests)
  }
}
const base = best.neither
console.log(`GET ${target}: CPU µs per request, minimum of ${rounds} interleaved rounds of ${requests} requests`)
console.log('| Configuration | µs per request | over neither |')
console.log('| --- | ---: | ---: |')
for (const name of names) console.log(`| ${name} | ${best[name].toFixed(2)} | +${(best[name] - base).toFixed(2)} µs |`)
console.log(`routeless's own part (both − SDK floor): ${(best.both - best['SDK floor']).toFixed(2)} µs`)
