#!/usr/bin/env node
/**
 * `npm run bench`: routeless (uws and node) beside raw uWebSockets.js, raw node:http, @whatwg-node/server, Fastify,
 * Hono and Express on three workloads, the same on Bun (Elysia too) and on Deno (their own servers, run by the
 * binaries npm installs: @oven/bun-linux-x64, @deno/linux-x64-glibc) and on Cloudflare's workerd (npm's workerd: each
 * peer a Worker module, raw, Hono's or `routeless build --target=worker`'s, built when it starts and served by
 * `workerd serve`), plus the routing-scale and worker-scaling measurements.
 *
 * Method (see docs/BENCHMARKS.md): every server runs alone, pinned to one core with `taskset`; the load generator
 * (wrk, or autocannon when wrk is missing) is pinned to the other core. Peers are interleaved over several rounds
 * (each round visits them in a rotated order) and every figure is the median over the rounds. Server CPU per request
 * is the server's user+system CPU time (from /proc, its whole process tree) over the measured window divided by the
 * requests completed in it. Ratios are to raw uWebSockets.js measured in the same run.
 *
 * Options: --rounds=5 --duration=5 --warmup=2 --connections=100 --peers=a,b --workloads=hello,params,echo
 *          --server-cpu=0 --load-cpu=1 --max-background=0.25 --retries=2 --no-build --no-http --no-routing --no-workers
 *          --out=bench/results   (--report=bench/results/latest.json re-renders a saved run)
 *          --shared-history (each node server script run with `--import` of bench/servers/_history.mjs: every node
 *          peer's modules loaded first, the process history bench/instructions.mjs counts with; default: each alone)
 *
 * Writes latest.json (the figures), latest.md (the tables) and latest.svg (the chart, bench/chart.mjs) to --out.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { writeChart } from './chart.mjs'
import { accountOrders, BENCH_TOKEN } from './servers/_common.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BENCH = path.join(ROOT, 'bench')

const PEERS = {
  'uws-raw': 'raw uWebSockets.js',
  'routeless-uws': 'routeless on uWS',
  'routeless-uws-typed': 'routeless on uWS, typed handlers',
  'node-raw': 'raw node:http',
  'routeless-node': 'routeless on node:http',
  'routeless-node-otel': 'routeless on node:http, tracing (SDK, no-op exporter) + metrics',
  'routeless-uws-otel': 'routeless on uWS, tracing (SDK, no-op exporter) + metrics',
  'routeless-whatwg': 'routeless/fetch (@whatwg-node/server on node:http)',
  'whatwg-node': '@whatwg-node/server (node:http)',
  'whatwg-node-uws': 'before: routeless app.fetch via @whatwg-node/server uWS adapter',
  'routeless-node-fetch': 'before: routeless app.fetch via @whatwg-node/server (node:http)',
  fastify: 'Fastify',
  hono: 'Hono (@hono/node-server)',
  express: 'Express',
  'bun-raw': 'raw Bun.serve, hand-routed (Bun)',
  'hono-bun': 'Hono on Bun.serve (Bun)',
  'elysia-bun': 'Elysia 1.4 on Bun (Bun)',
  'routeless-bun': 'routeless app.fetch on Bun.serve (Bun)',
  'routeless-bun-cli': 'routeless CLI run by bun (Bun)',
  'routeless-node-bun': 'routeless/node run by bun (Bun)',
  'deno-raw': 'raw Deno.serve, hand-routed (Deno)',
  'hono-deno': 'Hono on Deno.serve (Deno)',
  'routeless-deno': 'routeless app.fetch on Deno.serve (Deno)',
  'workerd-raw': 'raw Worker, hand-routed (workerd)',
  'hono-workerd': 'Hono as a Worker (workerd)',
  'routeless-workerd': 'routeless build --target=worker (workerd)',
}

const BUN = path.join(ROOT, 'node_modules', '@oven', 'bun-linux-x64', 'bin', 'bun')
const DENO = path.join(ROOT, 'node_modules', '@deno', 'linux-x64-glibc', 'deno')
const CLI = path.join(ROOT, 'packages', 'routeless', 'dist', 'bin.js')

/**
 * The command that starts `peer` on a free port: bench/servers/<peer>.mjs run by node, bun or deno. The workerd peers'
 * scripts are run by node too: they build the Worker and start workerd as their child (bench/servers/_workerd.mjs).
 */
export function peerCommand(peer, sharedHistory = false) {
  const file = path.join(BENCH, 'servers', `${peer}.mjs`)
  if (peer === 'routeless-bun-cli')
    return [BUN, CLI, `--prefix=${path.join(BENCH, 'controllers')}`, '--host=127.0.0.1:0', '--log-level=warn']
  if (/-bun$|^bun-/.test(peer)) return [BUN, file, '0']
  if (/-deno$|^deno-/.test(peer)) return [DENO, 'run', '--allow-all', file, '0']
  // With --shared-history, every node peer's modules first (bench/servers/_history.mjs).
  if (sharedHistory) return [process.execPath, `--import=${pathToFileURL(HISTORY).href}?load`, file, '0']
  return [process.execPath, file, '0']
}

const HISTORY = path.join(BENCH, 'servers', '_history.mjs')

/** 1 KiB of JSON: the body of workload (c). */
export const ECHO_BODY = (() => {
  const value = { id: 123, name: 'routeless', tags: ['a', 'b', 'c'], items: [] }
  let s = ''
  for (let i = 0; (s = JSON.stringify(value)).length < 1000; i++) value.items.push({ n: i, ok: i % 2 === 0 })
  value.pad = 'x'.repeat(1024 - s.length - ',"pad":""'.length)
  const body = JSON.stringify(value)
  if (Buffer.byteLength(body) !== 1024) throw new Error(`echo body is ${body.length} bytes`)
  return body
})()

export const WORKLOADS = {
  hello: { label: '(a) GET /hello', method: 'GET', path: '/hello', expect: '"Hello, World!"' },
  params: {
    label: '(b) GET /users/123/posts/456?x=1',
    method: 'GET',
    path: '/users/123/posts/456?x=1',
    expect: '{"user":"123","post":"456","x":"1"}',
  },
  echo: { label: '(c) POST /echo (1 KiB JSON)', method: 'POST', path: '/echo', body: ECHO_BODY, expect: ECHO_BODY },
  realistic: {
    label: '(d) GET /accounts/42/orders?limit=3, bearer-guarded, typed',
    method: 'GET',
    path: '/accounts/42/orders?limit=3',
    headers: { authorization: `Bearer ${BENCH_TOKEN}` },
    expect: JSON.stringify(accountOrders(42, 3)),
    peers: [
      'uws-raw',
      'node-raw',
      'routeless-uws',
      'routeless-node',
      'routeless-uws-otel',
      'routeless-node-otel',
      'fastify',
      'hono',
      'bun-raw',
      'hono-bun',
      'routeless-bun',
      'routeless-bun-cli',
      'deno-raw',
      'hono-deno',
      'routeless-deno',
      'workerd-raw',
      'hono-workerd',
      'routeless-workerd',
    ],
  },
  plain: {
    label: '(d′) GET /plain/accounts/42/orders?limit=3, the same without guard or types',
    method: 'GET',
    path: '/plain/accounts/42/orders?limit=3',
    expect: JSON.stringify(accountOrders(42, 3)),
    peers: ['routeless-uws', 'routeless-node', 'routeless-uws-otel', 'routeless-node-otel'],
  },
}

/** Whether `peer` serves workload `name` (the realistic workloads are served by a few peers only). */
const serves = (peer, name) => !WORKLOADS[name].peers || WORKLOADS[name].peers.includes(peer)

function parseArgs(argv) {
  const o = {
    rounds: 5,
    duration: 5,
    warmup: 2,
    connections: 100,
    peers: Object.keys(PEERS),
    workloads: Object.keys(WORKLOADS),
    serverCpu: '0',
    loadCpu: '1',
    build: true,
    http: true,
    routing: true,
    workers: true,
    out: path.join(BENCH, 'results'),
    maxBackground: 0.25,
    retries: 2,
    sharedHistory: false,
  }
  for (const a of argv) {
    const [k, v] = a.replace(/^--/, '').split('=')
    if (k === 'no-build') o.build = false
    else if (k === 'no-http') o.http = false
    else if (k === 'no-routing') o.routing = false
    else if (k === 'no-workers') o.workers = false
    else if (k === 'shared-history') o.sharedHistory = true
    else if (k === 'peers' || k === 'workloads') o[k] = v.split(',')
    else if (k === 'server-cpu') o.serverCpu = v
    else if (k === 'load-cpu') o.loadCpu = v
    else if (k === 'out') o.out = path.resolve(v)
    else if (k === 'max-background') o.maxBackground = Number(v)
    else if (k === 'report') o.report = path.resolve(v)
    else if (k in o) o[k] = Number(v)
    else throw new Error(`unknown option ${a}`)
  }
  for (const p of o.peers) if (!(p in PEERS)) throw new Error(`unknown peer ${p}`)
  return o
}

const has = (cmd) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

// --- processes and CPU time ---------------------------------------------------------------------------------------

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100

/** User+system CPU seconds of `pid` and every descendant (cluster workers included). */
function treeCpuSeconds(pid) {
  const children = new Map()
  const ticks = new Map()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ppid = Number(f[1])
    ticks.set(Number(name), Number(f[11]) + Number(f[12]))
    if (!children.has(ppid)) children.set(ppid, [])
    children.get(ppid).push(Number(name))
  }
  let total = 0
  const stack = [pid]
  while (stack.length) {
    const p = stack.pop()
    total += ticks.get(p) ?? 0
    stack.push(...(children.get(p) ?? []))
  }
  return total / CLK_TCK
}

/** Starts `command` pinned to `cpus`, resolves with the port once it prints `ready <port>` (or `listening on …:port`). */
export function startServer(command, cpuList, env = {}) {
  const child = spawn('taskset', ['-c', cpuList, ...command], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stderr.on('data', (d) => (err += d))
  const port = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d
      const m = /ready (\d+)|listening on http:\/\/[^\s]+:(\d+)/.exec(out)
      if (m) resolve(Number(m[1] ?? m[2]))
    })
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited ${code}: ${err}`)))
  })
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    const t = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(t)
  }
  return { child, port, stop, stderr: () => err }
}

// --- load generation ----------------------------------------------------------------------------------------------

function luaScript(w) {
  const file = path.join(tmpdir(), `routeless-bench-${w.method}-${process.pid}.lua`)
  const body =
    w.body === undefined
      ? ''
      : `wrk.body = ${JSON.stringify(w.body)}\nwrk.headers["Content-Type"] = "application/json"\n`
  const headers = Object.entries(w.headers ?? {})
    .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}\n`)
    .join('')
  writeFileSync(file, `wrk.method = "${w.method}"\n${body}${headers}`)
  return file
}

export function runWrk(url, w, seconds, o) {
  return new Promise((resolve, reject) => {
    const args = [
      '-c',
      o.loadCpu,
      'wrk',
      `-t${o.threads ?? 1}`,
      `-c${o.connections}`,
      `-d${seconds}s`,
      '--latency',
      '-s',
      luaScript(w),
      url,
    ]
    const child = spawn('taskset', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.on('exit', () => {
      const requests = Number(/(\d+) requests in/.exec(out)?.[1])
      const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)/m.exec(out)
      const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1]
      const socketErrors = /Socket errors: (.*)/.exec(out)?.[1]
      if (!Number.isFinite(requests)) return reject(new Error(`wrk failed: ${out}`))
      resolve({
        requests,
        p99Ms: p99 ? Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]] : NaN,
        errors: Number(errors ?? 0),
        socketErrors,
      })
    })
  })
}

function runAutocannon(url, w, seconds, o) {
  const bin = path.join(ROOT, 'node_modules', 'autocannon', 'autocannon.js')
  const args = [
    '-c',
    o.loadCpu,
    process.execPath,
    bin,
    '-j',
    '-c',
    String(o.connections),
    '-d',
    String(seconds),
    '-m',
    w.method,
  ]
  if (w.body !== undefined) args.push('-b', w.body, '-H', 'content-type=application/json')
  for (const [k, v] of Object.entries(w.headers ?? {})) args.push('-H', `${k}=${v}`)
  args.push(url)
  const out = execFileSync('taskset', args, { maxBuffer: 1 << 24 }).toString()
  const r = JSON.parse(out)
  return {
    requests: r.requests.total,
    p99Ms: r.latency.p99,
    errors: r.non2xx,
    socketErrors: r.errors ? String(r.errors) : undefined,
  }
}

const load = has('wrk') ? runWrk : runAutocannon

function wrkVersion() {
  try {
    return execFileSync('wrk', ['-v'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .split(' [')[0]
  } catch (error) {
    return error.stdout?.toString().split(' [')[0] || 'wrk' // `wrk -v` prints its version, then exits 1
  }
}

/** Busy CPU seconds of the cores in `list` (`0` or `0,1`), from /proc/stat. */
function coresBusySeconds(list) {
  const wanted = new Set(
    String(list)
      .split(',')
      .map((c) => `cpu${c}`),
  )
  let busy = 0
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const [name, ...fields] = line.trim().split(/\s+/)
    if (!wanted.has(name)) continue
    const f = fields.map(Number)
    busy += f.reduce((a, b) => a + b, 0) - f[3] - (f[4] ?? 0)
  }
  return busy / CLK_TCK
}

/**
 * One measured window: throughput, p99 and the server's CPU per request, plus the CPU that something else used on
 * the server's core ("background", in cores): a shared machine shows up there. A window with more background than
 * --max-background is measured again (--retries times at most), and the background is reported either way.
 */
async function measure(server, port, w, o) {
  const url = `http://127.0.0.1:${port}${w.path}`
  await load(url, w, o.warmup, o)
  let m
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    const cpu0 = treeCpuSeconds(server.child.pid)
    const busy0 = coresBusySeconds(o.serverCpu)
    const t0 = process.hrtime.bigint()
    const r = await load(url, w, o.duration, o)
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9
    const cpu = treeCpuSeconds(server.child.pid) - cpu0
    if (r.errors) throw new Error(`${url}: ${r.errors} non-2xx responses`)
    const others = coresBusySeconds(o.serverCpu) - busy0 - cpu
    m = {
      rps: r.requests / o.duration,
      p99Ms: r.p99Ms,
      cpuUs: (cpu * 1e6) / r.requests,
      wall: seconds,
      background: Math.max(0, others / seconds),
    }
    if (m.background <= o.maxBackground) break
  }
  return m
}

/** Checks that a server answers every workload as expected before it is measured. */
async function verify(peer, port, workloads) {
  for (const name of workloads) {
    const w = WORKLOADS[name]
    const res = await fetch(`http://127.0.0.1:${port}${w.path}`, {
      method: w.method,
      body: w.body,
      headers: { ...(w.body ? { 'content-type': 'application/json' } : {}), ...w.headers },
    })
    const text = await res.text()
    if (res.status !== 200 || JSON.stringify(JSON.parse(text)) !== JSON.stringify(JSON.parse(w.expect))) {
      throw new Error(`${peer} answers ${w.label} with ${res.status} ${text.slice(0, 200)}`)
    }
    if (!/^application\/json/.test(res.headers.get('content-type') ?? ''))
      throw new Error(`${peer} ${w.label}: content-type ${res.headers.get('content-type')}`)
  }
}

// --- the three workloads across peers -----------------------------------------------------------------------------

async function httpBench(o, log) {
  const samples = {} // peer → workload → [{ rps, p99Ms, cpuUs }]
  for (let round = 0; round < o.rounds; round++) {
    const order = o.peers.map((_, i) => o.peers[(i + round) % o.peers.length])
    for (const peer of order) {
      const server = startServer(peerCommand(peer, o.sharedHistory), o.serverCpu)
      try {
        const port = await server.port
        await verify(
          peer,
          port,
          o.workloads.filter((name) => serves(peer, name)),
        )
        for (const name of o.workloads.filter((name) => serves(peer, name))) {
          const m = await measure(server, port, WORKLOADS[name], o)
          ;((samples[peer] ??= {})[name] ??= []).push(m)
          log(
            `round ${round + 1}/${o.rounds} ${peer.padEnd(16)} ${name.padEnd(7)} ${Math.round(m.rps).toString().padStart(7)} req/s  p99 ${m.p99Ms.toFixed(2)} ms  ${m.cpuUs.toFixed(2)} µs CPU/req  background ${m.background.toFixed(2)} cores`,
          )
        }
      } finally {
        await server.stop()
      }
    }
  }
  const results = {}
  for (const peer of o.peers) {
    for (const name of o.workloads.filter((name) => serves(peer, name))) {
      const s = samples[peer][name]
      ;(results[peer] ??= {})[name] = {
        rps: median(s.map((x) => x.rps)),
        p99Ms: median(s.map((x) => x.p99Ms)),
        cpuUs: median(s.map((x) => x.cpuUs)),
        rounds: s.length,
        background: median(s.map((x) => x.background)),
      }
    }
  }
  return results
}

function httpTable(results, o) {
  const base = results['uws-raw']
  const lines = []
  for (const name of o.workloads) {
    lines.push(`#### ${WORKLOADS[name].label}`, '')
    lines.push(
      '| Server | req/s | × raw uWS | p99 ms | × raw uWS | CPU µs/req | × raw uWS | background cores |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    )
    const rows = o.peers
      .filter((p) => results[p]?.[name])
      .map((p) => [p, results[p][name]])
      .sort((a, b) => b[1].rps - a[1].rps)
    for (const [peer, r] of rows) {
      const b = base?.[name]
      const x = (v, bv) => (b ? (v / bv).toFixed(2) : '–')
      lines.push(
        `| ${PEERS[peer]} | ${Math.round(r.rps)} | ${x(r.rps, b?.rps)} | ${r.p99Ms.toFixed(2)} | ${x(r.p99Ms, b?.p99Ms)} | ${r.cpuUs.toFixed(2)} | ${x(r.cpuUs, b?.cpuUs)} | ${r.background.toFixed(2)} |`,
      )
    }
    lines.push('')
  }
  return lines.join('\n')
}

/**
 * The issue's targets. Throughput ratios are as measured; where the load generator's core is shared (a busy
 * machine) they understate the faster servers, so each throughput target is also given as the capacity ratio, the
 * inverse ratio of server CPU per request (what each server would serve with its core to itself).
 */
function targetsTable(results, o) {
  const r = results
  const lines = [
    '| Target | Workload | Throughput ratio | Capacity ratio (CPU) | Holds |',
    '| --- | --- | ---: | ---: | :---: |',
  ]
  const row = (target, name, measured, capacity, ok) =>
    lines.push(
      `| ${target} | ${WORKLOADS[name].label} | ${measured === undefined ? '–' : `${measured.toFixed(2)}×`} | ${capacity.toFixed(2)}× | ${ok ? 'yes' : '**no**'} |`,
    )
  // The serving issue's goals: routeless/node at least Fastify's and Hono's, routeless/uws at least 0.9× raw uWS,
  // on every workload (echo included).
  const goals = [
    ['routeless-node', 'fastify', 1, 'routeless/node ≥ 1.0× Fastify'],
    ['routeless-node', 'hono', 1, 'routeless/node ≥ 1.0× Hono'],
    ['routeless-uws', 'uws-raw', 0.9, 'routeless/uws ≥ 0.9× raw uWS'],
    ['routeless-uws-typed', 'routeless-uws', 0.9, 'typed handlers ≥ 0.9× untyped (routeless/uws)'],
    // The Fetch path's (issue 26): routeless's app.fetch at least Hono's on each runtime's own server.
    ['routeless-bun', 'hono-bun', 1, 'routeless on Bun.serve ≥ 1.0× Hono on Bun.serve'],
    // Issue 42's: the CLI on Bun at least Elysia's capacity (Elysia serves (a)–(c) only).
    ['routeless-bun-cli', 'elysia-bun', 1, 'routeless CLI on Bun ≥ 1.0× Elysia on Bun'],
    ['routeless-deno', 'hono-deno', 1, 'routeless on Deno.serve ≥ 1.0× Hono on Deno.serve'],
    ['routeless-workerd', 'hono-workerd', 1, 'routeless on workerd ≥ 1.0× Hono on workerd'],
  ]
  for (const name of o.workloads) {
    for (const [ours, peer, goal, label] of goals) {
      if (!r[ours]?.[name] || !r[peer]?.[name]) continue
      const t = r[ours][name].rps / r[peer][name].rps
      const c = r[peer][name].cpuUs / r[ours][name].cpuUs
      row(label, name, t, c, c >= goal)
    }
  }
  // The operations issue's: tracing and metrics on cost at most 15% more server CPU per request than neither.
  for (const name of o.workloads) {
    for (const ours of ['routeless-node', 'routeless-uws']) {
      const on = r[`${ours}-otel`]?.[name]
      const off = r[ours]?.[name]
      if (!on || !off) continue
      const c = off.cpuUs / on.cpuUs
      row(`${PEERS[ours]}: tracing + metrics ≤ 1.15× CPU/req of neither`, name, on.rps / off.rps, c, c >= 1 / 1.15)
    }
  }
  // The core-shape issue's: a guarded, typed handler within 10% of the same handler unguarded and untyped.
  for (const ours of ['routeless-node', 'routeless-uws']) {
    const guarded = r[ours]?.realistic
    const plain = r[ours]?.plain
    if (!guarded || !plain) continue
    const c = plain.cpuUs / guarded.cpuUs
    row(`${PEERS[ours]}: guarded, typed ≥ 0.9× unguarded, untyped`, 'realistic', guarded.rps / plain.rps, c, c >= 0.9)
  }
  return lines.join('\n')
}

// --- --workers: one process vs two through the CLI ----------------------------------------------------------------

async function workersBench(o, log) {
  const controllers = path.join(BENCH, 'controllers')
  const all = Array.from({ length: cpus().length }, (_, i) => i).join(',')
  // Server and load generator share every core here: no pinning, wrk with two threads, no background retries.
  const shared = { ...o, loadCpu: all, serverCpu: all, threads: 2, maxBackground: Infinity }
  const out = {}
  for (const server of ['uws', 'node']) {
    for (const name of ['hello', 'echo']) {
      for (const workers of [1, 2]) {
        const samples = []
        for (let round = 0; round < Math.max(1, Math.ceil(o.rounds / 2)); round++) {
          // --log-level=warn: no access log line per request (it would measure logging, and it takes the Fetch path).
          const s = startServer(
            [
              process.execPath,
              CLI,
              `--prefix=${controllers}`,
              '--host=127.0.0.1:0',
              `--server=${server}`,
              `--workers=${workers}`,
              '--log-level=warn',
            ],
            all,
          )
          try {
            const port = await s.port
            await verify(`cli ${server} x${workers}`, port, [name])
            const m = await measure(s, port, WORKLOADS[name], shared)
            samples.push(m)
            log(`workers ${server} ${name} x${workers}: ${Math.round(m.rps)} req/s`)
          } finally {
            await s.stop()
          }
        }
        ;((out[server] ??= {})[name] ??= {})[workers] = median(samples.map((m) => m.rps))
      }
    }
  }
  return out
}

function workersTable(w) {
  const lines = [
    '| Server | Workload | 1 worker req/s | 2 workers req/s | Ratio |',
    '| --- | --- | ---: | ---: | ---: |',
  ]
  for (const [server, byName] of Object.entries(w)) {
    for (const [name, r] of Object.entries(byName)) {
      lines.push(
        `| ${server} | ${WORKLOADS[name]?.label ?? name} | ${Math.round(r[1])} | ${Math.round(r[2])} | ${(r[2] / r[1]).toFixed(2)}× |`,
      )
    }
  }
  return lines.join('\n')
}

// --- main ---------------------------------------------------------------------------------------------------------

async function main() {
  const o = parseArgs(process.argv.slice(2))
  if (o.report) {
    // Re-render the tables of a saved run (its JSON), e.g. after the table format changed.
    process.stdout.write(render(JSON.parse(readFileSync(o.report, 'utf8'))))
    return
  }
  const log = (line) => process.stderr.write(`${line}\n`)
  if (o.build) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  if (!has('taskset')) throw new Error('taskset (util-linux) is required to pin server and load generator to cores')
  mkdirSync(o.out, { recursive: true })
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, ${load === runWrk ? wrkVersion() : 'autocannon'}`
  const json = { date: new Date().toISOString(), machine, options: o }
  if (o.http) json.http = await httpBench(o, log)
  if (o.routing)
    json.routing = JSON.parse(
      execFileSync(process.execPath, [path.join(BENCH, 'routing.mjs')], { cwd: ROOT }).toString(),
    )
  if (o.workers) json.workers = await workersBench(o, log)
  writeFileSync(path.join(o.out, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`)
  writeFileSync(path.join(o.out, 'latest.md'), render(json))
  // The picture, drawn from the JSON just written (bench/chart.mjs): latest.svg beside latest.md.
  if (json.http) log(`chart: ${writeChart(path.join(o.out, 'latest.json'))}`)
  process.stdout.write(render(json))
}

function render(json) {
  const o = json.options
  const report = [
    `Run ${json.date ?? ''} on ${json.machine}.`,
    `Rounds ${o.rounds}, ${o.duration} s per window after ${o.warmup} s warm-up, ${o.connections} connections; server on CPU ${o.serverCpu}, load on CPU ${o.loadCpu}.`,
    '',
  ]
  if (json.http)
    report.push(
      '### Throughput, p99 latency and server CPU per request (medians)',
      '',
      httpTable(json.http, o),
      '### Targets',
      '',
      targetsTable(json.http, o),
      '',
    )
  if (json.routing) report.push('### Route resolution and start-up', '', routingTable(json.routing), '')
  if (json.workers)
    report.push(
      '### --workers=2 against one worker (through the CLI; server and load generator share the two cores)',
      '',
      workersTable(json.workers),
      '',
    )
  return `${report.join('\n')}\n`
}

function routingTable(r) {
  const lines = [
    '| Controllers | resolve() ns/op | handle() µs/op (the whole core, no sockets) |',
    '| ---: | ---: | ---: |',
  ]
  for (const x of r.resolve) lines.push(`| ${x.controllers} | ${x.resolveNs.toFixed(0)} | ${x.fetchUs.toFixed(2)} |`)
  lines.push(
    '',
    `Start-up (discover, import and compile) of ${r.startup.modules} controller modules: ${r.startup.ms.toFixed(0)} ms (median of ${r.startup.runs} fresh processes).`,
  )
  return lines.join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main()
}
