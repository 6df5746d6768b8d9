#!/usr/bin/env node
/**
 * `node bench/fetch-overhead.mjs`: routeless's `app.fetch` against Hono's `app.fetch` in one process, on Bun and on
 * Deno (the binaries npm installs), and on node: the Fetch path's own cost, without the runtime's server. Each
 * round makes the same `Request`s for both (and for a handler that answers at once, the floor), interleaved; the
 * figures are CPU time per request, the minimum over the rounds, and the median of the per-round ratios.
 *
 * Options: --rounds=30 --requests=3000 --workloads=hello,params,echo --runtimes=bun,deno,node
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.join(HERE, '..')
const RUNTIMES = {
  bun: [path.join(ROOT, 'node_modules/@oven/bun-linux-x64/bin/bun'), [fileURLToPath(import.meta.url)]],
  deno: [path.join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno'), ['run', '-A', fileURLToPath(import.meta.url)]],
  node: [process.execPath, [fileURLToPath(import.meta.url)]],
}

const args = Object.fromEntries(
  (globalThis.Deno ? Deno.args : process.argv.slice(2)).map((a) => a.replace(/^--/, '').split('=')),
)
const rounds = Number(args.rounds ?? 30)
const requests = Number(args.requests ?? 3000)
const workloads = (args.workloads ?? 'hello,params,echo').split(',')

if (args.child) await measure()
else {
  console.log(`${rounds} rounds of ${requests} requests; µs of CPU per request (minimum over the rounds)\n`)
  console.log('| Runtime | Workload | routeless | Hono | floor | Hono ÷ routeless (median of rounds) |')
  console.log('| --- | --- | ---: | ---: | ---: | ---: |')
  for (const name of (args.runtimes ?? 'bun,deno,node').split(',')) {
    const [bin, first] = RUNTIMES[name]
    const out = execFileSync(
      bin,
      [...first, '--child=1', `--rounds=${rounds}`, `--requests=${requests}`, `--workloads=${workloads}`],
      { cwd: ROOT, encoding: 'utf8' },
    )
    for (const line of out.trim().split('\n')) console.log(`| ${name} ${line}`)
  }
}

async function measure() {
  const { createApp } = await import('routeless')
  const { app: hono } = await import('./servers/_hono-app.mjs')
  const { ECHO_BODY } = await import('./run.mjs')
  const app = await createApp(path.join(HERE, 'controllers'))
  const body = new TextEncoder().encode(ECHO_BODY)
  const base = 'http://127.0.0.1:3000'
  const make = {
    hello: () => new Request(`${base}/hello`),
    params: () => new Request(`${base}/users/123/posts/456?x=1`),
    echo: () =>
      new Request(`${base}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) },
        body: body.slice(),
      }),
  }
  const cpu = () => {
    const used = process.cpuUsage()
    return used.user + used.system
  }
  const run = async (fetch, request) => {
    const start = cpu()
    for (let i = 0; i < requests; i++) await (await fetch(request())).arrayBuffer()
    return (cpu() - start) / requests
  }
  const floor = async () => new Response('x')
  for (const w of workloads) {
    const [ours, theirs] = [await app.fetch(make[w]()), await hono.fetch(make[w]())]
    const [a, b] = [await ours.text(), await theirs.text()]
    if (a !== b || ours.status !== 200) throw new Error(`${w}: routeless and Hono answer differently: ${a} / ${b}`)
    const best = { ours: Infinity, theirs: Infinity, floor: Infinity }
    const ratios = []
    for (let r = 0; r < rounds; r++) {
      best.floor = Math.min(best.floor, await run(floor, make[w]))
      const us = await run(app.fetch, make[w])
      const them = await run(hono.fetch, make[w])
      best.ours = Math.min(best.ours, us)
      best.theirs = Math.min(best.theirs, them)
      ratios.push(them / us)
    }
    ratios.sort((x, y) => x - y)
    const median = ratios[ratios.length >> 1]
    console.log(
      `| ${w} | ${best.ours.toFixed(2)} | ${best.theirs.toFixed(2)} | ${best.floor.toFixed(2)} | ${median.toFixed(2)} |`,
    )
  }
}
