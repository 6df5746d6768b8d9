#!/usr/bin/env node
/**
 * `node bench/telemetry-cost.mjs`: the in-process cost of tracing and metrics per request — `app.handle` on a
 * prepared request, no sockets — for GET /hello with neither, metrics only, tracing only (the SDK with a no-op
 * exporter) and both. Each configuration runs in a fresh process (a registered SDK is process-wide).
 * Options: --requests=200000 --rounds=5
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CONFIGS = ['neither', 'metrics', 'tracing', 'both']
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const requests = Number(args.requests ?? 200_000)
const rounds = Number(args.rounds ?? 5)

if (args.child) {
  const config = args.child
  const { createApp } = await import('routeless')
  if (config === 'tracing' || config === 'both') (await import('./servers/_telemetry.mjs')).startNoopTracing()
  const app = await createApp(fileURLToPath(new URL('./controllers', import.meta.url)), {
    metrics: config === 'metrics' || config === 'both',
    tracing: config === 'tracing' || config === 'both' ? undefined : false,
  })
  const headers = new Map([
    ['host', '127.0.0.1:8000'],
    ['user-agent', 'bench'],
  ])
  const incoming = {
    method: 'GET',
    target: '/hello',
    header: (name) => headers.get(name) ?? null,
    body: () => null,
    request: () => new Request('http://127.0.0.1:8000/hello'),
    url: () => new URL('http://127.0.0.1:8000/hello'),
  }
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const answer = app.handle({ ...incoming }, {})
      if (answer instanceof Promise) await answer
    }
  }
  await run(20_000) // warm-up
  const t0 = process.hrtime.bigint()
  await run(requests)
  process.stdout.write(String(Number(process.hrtime.bigint() - t0) / 1e3 / requests))
} else {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const results = {}
  for (let r = 0; r < rounds; r++)
    for (const config of CONFIGS)
      (results[config] ??= []).push(
        Number(
          execFileSync(process.execPath, [
            fileURLToPath(import.meta.url),
            `--child=${config}`,
            `--requests=${requests}`,
          ]),
        ),
      )
  const base = median(results.neither)
  console.log('| Configuration | µs per request (median) | over neither |')
  console.log('| --- | ---: | ---: |')
  for (const config of CONFIGS) {
    const us = median(results[config])
    console.log(`| ${config} | ${us.toFixed(2)} | +${(us - base).toFixed(2)} µs |`)
  }
}
