#!/usr/bin/env node
/**
 * `npm run bench:instructions`: instructions per request, counted by valgrind (callgrind), for routeless and its peers
 * in one process each. Instruction counts do not depend on what else the machine is doing (two runs agree within a
 * fraction of a percent on a busy machine), so they decide changes below a microsecond where wall time cannot.
 *
 * Method: every peer runs in its own `valgrind --tool=callgrind node --single-threaded` (one thread: V8 compiles and
 * collects garbage on the main thread, so the count is repeatable). The process answers each workload once and
 * checks the answer, sends W requests of each workload (settling: the start-up's garbage is collected and swept
 * then), then per workload sends W requests (the warm-up, default 5,000: by then V8 has compiled the hot path at its
 * top tier), then N more (the measured phase, default 1,000), one at a time.
 * Between the phases it calls `process.memoryUsage.rss()`, and callgrind dumps its counter before each such call
 * (`--dump-before=uv_resident_set_memory`), so the dump of the measured phase holds exactly the N requests at steady
 * state: divided by N, it is the instructions per request.
 *
 * Two families, each compared within itself only:
 * - fetch: the `Request → Response` path without a server: routeless's `app.fetch`, Hono's `app.fetch` and a
 *   hand-routed Fetch handler (bench/servers/_fetch-raw.mjs); each request is a new `Request`, the body is read.
 * - socket: node:http and uWebSockets.js servers listening on loopback, driven by a raw-socket client in the same
 *   process, one keep-alive connection, one request at a time: raw node:http, routeless/node, Fastify, Hono
 *   (@hono/node-server), raw uWS and routeless/uws. The client's share is the same for every server, so differences
 *   between servers are the servers' own; the kernel's share is not counted (callgrind counts user space only).
 *
 * One history: before it starts its peer, every process loads the modules of all the peers (`SHARED_HISTORY`, in
 * bench/servers/_history.mjs), so that node's own shared code has seen the same objects in each. node's constructors
 * of the request and the answer (`IncomingMessage`, `ServerResponse`) run `EventEmitter.init`, whose inline caches stay
 * polymorphic only in a process that made few other emitters before its first request: node's ES module loader makes
 * a `FileHandle` (an emitter) per module it reads, so a server of three modules (raw node:http) kept them
 * polymorphic, and one of twenty (routeless, Hono) had them megamorphic, ~1–1.4k instructions a request of node's code
 * that a raw server in any real process (a logger, a pool, its own modules) pays too. `--pristine` loads only the
 * peer's own modules, as before.
 *
 * Options: --pristine (only the peer's own modules first) --no-settle (no W requests of every workload before the first warm-up) --warmup=5000 (W) --requests=1000 (N) --connections=1 (socket peers: C connections at once, as wrk's) --keep=dir (keeps each peer's callgrind dumps in dir/peer) --perf-map (with --keep: node runs with --perf-basic-prof and its map of JIT code is kept beside the dumps, for bench/instructions-by-function.mjs) --peers=a,b --workloads=hello,params,echo,realistic(,plain,guarded,typed: routeless only) --no-build --json
 *          (--report=saved.json re-renders the table of a --json run)
 * Needs valgrind (apt-get install valgrind). A run of one peer takes about a minute under valgrind.
 */
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadSharedHistory } from './servers/_history.mjs'
import { accountOrders, BENCH_TOKEN, echoParams, HELLO } from './servers/_workloads.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
const ROOT = path.join(HERE, '..')

/** 1 KiB of JSON: the body of the echo workload (as bench/run.mjs's ECHO_BODY, built the same way). */
const ECHO_BODY = (() => {
  const value = { id: 123, name: 'routeless', tags: ['a', 'b', 'c'], items: [] }
  let s = ''
  for (let i = 0; (s = JSON.stringify(value)).length < 1000; i++) value.items.push({ n: i, ok: i % 2 === 0 })
  value.pad = 'x'.repeat(1024 - s.length - ',"pad":""'.length)
  return JSON.stringify(value)
})()

/** The workloads of `npm run bench`: method, path, headers, body and the answer expected. */
export const WORKLOADS = {
  hello: { method: 'GET', path: '/hello', expect: HELLO },
  params: { method: 'GET', path: '/users/123/posts/456?x=1', expect: JSON.stringify(echoParams('123', '456', '1')) },
  echo: { method: 'POST', path: '/echo', type: 'application/json', body: ECHO_BODY, expect: ECHO_BODY },
  realistic: {
    method: 'GET',
    path: '/accounts/42/orders?limit=3',
    authorization: `Bearer ${BENCH_TOKEN}`,
    expect: JSON.stringify(accountOrders(42, 3)),
  },
  // routeless only (--workloads=plain): the realistic workload without guard or types (bench/controllers/plain.mjs)
  plain: { method: 'GET', path: '/plain/accounts/42/orders?limit=3', expect: JSON.stringify(accountOrders(42, 3)) },
  // routeless only: its guard alone, its types alone (bench/controllers/guarded.mjs, typed.mjs)
  guarded: {
    method: 'GET',
    path: '/guarded/accounts/42/orders?limit=3',
    authorization: `Bearer ${BENCH_TOKEN}`,
    expect: JSON.stringify(accountOrders(42, 3)),
  },
  typed: { method: 'GET', path: '/typed/accounts/42/orders?limit=3', expect: JSON.stringify(accountOrders(42, 3)) },
}

export const PEERS = {
  'routeless-fetch': { family: 'fetch', label: 'routeless app.fetch' },
  'hono-fetch': { family: 'fetch', label: 'Hono app.fetch' },
  'fetch-raw': { family: 'fetch', label: 'hand-routed Fetch handler' },
  'node-raw': { family: 'socket', label: 'raw node:http' },
  'routeless-node': { family: 'socket', label: 'routeless/node' },
  fastify: { family: 'socket', label: 'Fastify' },
  'hono-node': { family: 'socket', label: 'Hono (@hono/node-server)' },
  'uws-raw': { family: 'socket', label: 'raw uWS' },
  'routeless-uws': { family: 'socket', label: 'routeless/uws' },
}

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const requests = Number(args.requests ?? 1000)
const warmup = Number(args.warmup ?? 5000)
if (!(requests > 0 && warmup >= 0)) throw new Error('--requests must be > 0 and --warmup ≥ 0')
const connections = Number(args.connections ?? 1)
if ('perf-map' in args && !args.keep) throw new Error('--perf-map keeps its map beside the dumps: give --keep=dir too')
if (!(Number.isInteger(connections) && connections >= 1)) throw new Error('--connections must be an integer ≥ 1')
const workloads = (args.workloads ?? 'hello,params,echo,realistic').split(',')
for (const w of workloads) if (!(w in WORKLOADS)) throw new Error(`unknown workload ${w}`)

// --- the parent: one valgrind per peer, the table ----------------------------------------------------------------

async function parent() {
  if (args.report) {
    // Re-render a saved run (its --json output).
    const saved = JSON.parse(readFileSync(args.report, 'utf8'))
    return void process.stdout.write(
      table(saved.results, Object.keys(saved.results), saved.requests, saved.warmup ?? saved.requests),
    )
  }
  const peers = (args.peers ?? Object.keys(PEERS).join(',')).split(',')
  for (const p of peers) if (!(p in PEERS)) throw new Error(`unknown peer ${p}`)
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
  } catch {
    throw new Error('valgrind is required (apt-get install valgrind)')
  }
  if (!('no-build' in args))
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  const results = {}
  for (const peer of peers) {
    const started = Date.now()
    results[peer] = await count(peer)
    const seconds = ((Date.now() - started) / 1000).toFixed(0)
    const line = Object.entries(results[peer]).map(
      ([w, r]) =>
        `${w} ${kilo(r.instructions)} (compiler ${kilo(r.compile)}, GC ${kilo(r.gc)}, the warm-up ${kilo(r.first)})`,
    )
    process.stderr.write(`${peer}: ${line.join('; ')} (${seconds} s)\n`)
  }
  if ('json' in args) return void process.stdout.write(`${JSON.stringify({ requests, warmup, results }, null, 2)}\n`)
  process.stdout.write(table(results, peers))
}

/** Runs `peer` under callgrind; resolves with { workload: instructions per request }. */
async function count(peer) {
  const dir = args.keep ? path.resolve(args.keep, peer) : mkdtempSync(path.join(tmpdir(), 'routeless-instructions-'))
  if (args.keep) mkdirSync(dir, { recursive: true })
  try {
    const command = [
      '--tool=callgrind',
      '--dump-before=uv_resident_set_memory',
      `--callgrind-out-file=${path.join(dir, 'cg.out')}`,
      process.execPath,
      '--single-threaded',
      '--expose-gc',
      ...('perf-map' in args ? ['--perf-basic-prof'] : []),
      fileURLToPath(import.meta.url),
      `--child=${peer}`,
      `--requests=${requests}`,
      `--warmup=${warmup}`,
      `--connections=${connections}`,
      ...('gc' in args ? ['--gc'] : []),
      ...('pristine' in args ? ['--pristine'] : []),
      `--workloads=${workloads.join(',')}`,
    ]
    const child = spawn('valgrind', command, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    const code = await new Promise((resolve) => child.on('exit', resolve))
    if (code !== 0) throw new Error(`${peer}: valgrind exited ${code}: ${err.slice(-2000)}`)
    if ('perf-map' in args) keepPerfMap(dir)
    // cg.out.1 is the start-up, then each workload's warm-up and its measured N requests; cg.out is the exit.
    const dumps = readdirSync(dir)
      .map((f) => /^cg\.out\.(\d+)$/.exec(f))
      .filter(Boolean)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((m) => path.join(dir, m[0]))
    if (dumps.length !== 1 + 2 * workloads.length)
      throw new Error(
        `${peer}: ${dumps.length} dumps, expected ${1 + 2 * workloads.length} (who else asked for the RSS?)`,
      )
    const start = split(dumps[0]).total
    process.stderr.write(`${peer}: start-up ${(start / 1e9).toFixed(2)} G instructions\n`)
    const out = {}
    workloads.forEach((w, i) => {
      const { total, compile, gc } = split(dumps[2 + 2 * i])
      const per = (n) => n / requests
      out[w] = {
        instructions: per(total - compile),
        compile: per(compile),
        gc: per(gc),
        first: warmup ? split(dumps[1 + 2 * i]).total / warmup : undefined,
      }
    })
    return out
  } finally {
    if (!args.keep) rmSync(dir, { recursive: true, force: true })
  }
}

/** Moves node's map of its JIT code (V8 writes `/tmp/perf-PID.map`; PID is the dumps') beside the dumps as `perf.map`. */
function keepPerfMap(dir) {
  const pid = /^pid: (\d+)$/m.exec(readFileSync(path.join(dir, 'cg.out.1'), 'utf8'))?.[1]
  const map = `/tmp/perf-${pid}.map`
  if (!pid || !existsSync(map)) return
  copyFileSync(map, path.join(dir, 'perf.map'))
  rmSync(map)
}

/**
 * A dump's total, and the part of it V8's compilers took (the runtime's Compile* entries, inclusive: optimising a hot
 * function is start-up paid late, and where it lands depends on N) and garbage collection (counted, shown apart).
 */
function split(file) {
  const total = Number(/^totals: (\d+)$/m.exec(readFileSync(file, 'utf8'))[1])
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  let compile = 0
  let gc = 0
  for (const m of annotated.matchAll(
    /^\s*([\d,]+) .*?:v8::internal::(Runtime_Compile\w*|Runtime_InstallBaselineCode|Heap::CollectGarbage)\(/gm,
  )) {
    const n = Number(m[1].replaceAll(',', ''))
    if (m[2].startsWith('Heap')) gc += n
    else compile += n
  }
  return { total, compile, gc }
}

export const kilo = (n) => (n === undefined ? '–' : `${(n / 1000).toFixed(1)}k`)
const ratio = (a, b) => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`)

/**
 * One Markdown table per family: instructions per request, then routeless's count over each peer's; then the same
 * without the collections that fell in the window. Which collections fall in a window of 1,000 requests differs from
 * one process to the next (0 to 2.7k a request on routeless/uws's hello, for the same build): the totals of two
 * processes can differ by that much, and a ratio of totals by ~8 %. The second table compares what the code executes.
 */
export function table(results, peers = Object.keys(results), n = requests, w = warmup) {
  return [
    tableOf(results, peers, n, w, (r) => r?.instructions, 'garbage collection included'),
    tableOf(
      results,
      peers,
      n,
      w,
      (r) => (r?.instructions === undefined ? undefined : r.instructions - (r.gc ?? 0)),
      'garbage collection excluded: compare these across processes',
    ),
  ].join('\n')
}

function tableOf(results, peers, n, w, count, what) {
  const out = [
    `Instructions per request (callgrind, node --single-threaded, N = ${n} requests counted after a warm-up of W = ${w}:`,
    `the count of the N ÷ N, V8 optimising compiler excluded, ${what})`,
    '',
  ]
  const ours = { fetch: 'routeless-fetch', socket: 'routeless-node' }
  for (const family of ['fetch', 'socket']) {
    const here = peers.filter((p) => PEERS[p].family === family)
    if (!here.length) continue
    const others = here.filter((p) => !p.startsWith('routeless'))
    const against = (p) => (p === 'uws-raw' ? 'routeless-uws' : ours[family])
    const ratios = others.filter((p) => here.includes(against(p)))
    const row = (cells) => `| ${cells.join(' | ')} |`
    out.push(
      row([
        family,
        ...here.map((p) => PEERS[p].label),
        ...ratios.map((p) => `${p === 'uws-raw' ? 'routeless/uws' : 'routeless'} ÷ ${PEERS[p].label}`),
      ]),
      row(['---', ...[...here, ...ratios].map(() => '---:')]),
    )
    const instructions = (p, w) => count(results[p][w])
    for (const w of Object.keys(WORKLOADS).filter((w) => here.some((p) => results[p][w])))
      out.push(
        row([
          w,
          ...here.map((p) => kilo(instructions(p, w))),
          ...ratios.map((p) => ratio(instructions(against(p), w), instructions(p, w))),
        ]),
      )
    out.push('')
  }
  return `${out.join('\n')}\n`
}

// --- the child: one peer, the phases ------------------------------------------------------------------------------

async function child(peer) {
  if (!('pristine' in args)) await loadSharedHistory()
  const send = PEERS[peer].family === 'fetch' ? await fetchPeer(peer) : await socketPeer(peer)
  await checkAnswers(peer, send)
  const mark = () => process.memoryUsage.rss() // callgrind dumps its counter before this (--dump-before)
  // Settling, counted with the start-up: W requests of every workload first. A server that allocated much to start
  // (routeless reads its controllers and writes their code) has V8 collect the old space that start-up filled during
  // its first thousands of requests, and sweep it lazily, on the main thread under --single-threaded: 15–20k
  // instructions a request over the 1,000 counted, in whichever workload came first (one run in four, ~8 % more).
  if (!('no-settle' in args)) for (const w of workloads) await sendMany(send, WORKLOADS[w], warmup)
  mark()
  for (const w of workloads) {
    const workload = WORKLOADS[w]
    await sendMany(send, workload, warmup)
    if ('gc' in args) globalThis.gc() // a forced full collection flushes compiled code: the phase then recompiles
    mark()
    await sendMany(send, workload, requests)
    mark()
  }
  process.exit(0)
}

/** Sends each of `names` once and checks its answer: a peer that answers something else is not counted. */
export async function checkAnswers(peer, send, names = workloads) {
  for (const w of names) {
    const body = await send(WORKLOADS[w])
    if (JSON.stringify(JSON.parse(body)) !== JSON.stringify(JSON.parse(WORKLOADS[w].expect)))
      throw new Error(`${peer} answers ${w} with ${body.slice(0, 200)}`)
  }
}

/**
 * `count` requests of `workload`: one at a time, or with --connections=C, C at once (each connection sends its next
 * request when its answer has come, as wrk does), which keeps C requests in flight and their objects alive.
 */
export async function sendMany(send, workload, count) {
  if (connections === 1) {
    for (let i = 0; i < count; i++) await send(workload)
    return
  }
  let left = count
  const loop = async (sendOn) => {
    while (left > 0) {
      left--
      await sendOn(workload)
    }
  }
  await Promise.all((send.all ?? Array.from({ length: connections }, () => send)).map(loop))
}

/** A Fetch handler: `send(workload)` makes a new `Request`, answers it, reads the body as text. */
async function fetchPeer(peer) {
  let handler
  if (peer === 'routeless-fetch') {
    const { createApp } = await import('routeless')
    const app = await createApp(path.join(HERE, 'controllers'))
    handler = (request) => app.fetch(request)
  } else if (peer === 'hono-fetch') {
    const { app } = await import('./servers/_hono-app.mjs')
    handler = (request) => app.fetch(request)
  } else handler = (await import('./servers/_fetch-raw.mjs')).fetchRaw
  const encoder = new TextEncoder()
  return async (w) => {
    const headers = {}
    if (w.type) headers['content-type'] = w.type
    if (w.authorization) headers.authorization = w.authorization
    const body = w.body === undefined ? undefined : encoder.encode(w.body)
    if (body) headers['content-length'] = String(body.byteLength)
    const response = await handler(new Request(`http://127.0.0.1:3000${w.path}`, { method: w.method, headers, body }))
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${peer}: ${w.path} answered ${response.status} ${text}`)
    return text
  }
}

/** A server on loopback in this process: `send(workload)` writes the raw request, resolves with the answer's body. */
async function socketPeer(peer) {
  const port = await listen(peer)
  const all = []
  for (let i = 0; i < connections; i++) all.push(await socketClient(peer, port))
  const send = all[0]
  send.all = all
  return send
}

/** One keep-alive connection to `port`: `send(workload)` writes the raw request, resolves with the answer's body. */
export async function socketClient(peer, port) {
  let socket
  let buffered = ''
  let waiting
  // A server may close the idle connection (node's keep-alive timeout: callgrind's dump between two phases can take
  // longer on a busy machine): the next request then opens a new one, outside the counted requests' own work.
  const connect = async () => {
    const s = net.connect(port, '127.0.0.1')
    s.setNoDelay(true)
    s.setEncoding('latin1')
    await new Promise((resolve, reject) => s.once('connect', resolve).once('error', reject))
    s.on('error', () => {}) // then 'close'
    s.on('close', () => {
      if (socket !== s) return
      socket = undefined
      // Closed with a request unanswered (the server's timer ran as the request went out): sent again, once.
      if (waiting && !waiting.again)
        connect().then(
          () => socket.write(((waiting.again = true), waiting.request), 'latin1'),
          (error) => waiting?.reject(error),
        )
      else waiting?.reject(new Error(`${peer}: the connection closed`))
    })
    s.on('data', onData)
    buffered = ''
    socket = s
  }
  const onData = (data) => {
    buffered += data
    const end = buffered.indexOf('\r\n\r\n')
    if (end < 0 || !waiting) return
    const head = buffered.slice(0, end)
    const length = /\r\ncontent-length: *(\d+)/i.exec(head)
    let body
    let rest
    if (length) {
      if (buffered.length < end + 4 + Number(length[1])) return
      body = buffered.slice(end + 4, end + 4 + Number(length[1]))
      rest = buffered.slice(end + 4 + Number(length[1]))
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const last = buffered.indexOf('0\r\n\r\n', end + 4)
      if (last < 0) return
      body = dechunk(buffered.slice(end + 4, last))
      rest = buffered.slice(last + 5)
    } else throw new Error(`${peer}: an answer without length: ${head}`)
    buffered = rest
    const { resolve, reject } = waiting
    waiting = undefined
    if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`${peer}: ${head}`))
    else resolve(Buffer.from(body, 'latin1').toString('utf8'))
  }
  await connect()
  const raw = new Map()
  return async (w) => {
    let request = raw.get(w)
    if (!request) {
      const body = w.body ?? ''
      request =
        `${w.method} ${w.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        (w.authorization ? `Authorization: ${w.authorization}\r\n` : '') +
        (w.type ? `Content-Type: ${w.type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '') +
        `\r\n${body}`
      raw.set(w, request)
    }
    if (!socket) await connect()
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject, request }
      socket.write(request, 'latin1')
    })
  }
}

function dechunk(text) {
  let out = ''
  for (let i = 0; i < text.length; ) {
    const eol = text.indexOf('\r\n', i)
    const size = Number.parseInt(text.slice(i, eol), 16)
    out += text.slice(eol + 2, eol + 2 + size)
    i = eol + 2 + size + 2
  }
  return out
}

/** Starts `peer` on a free loopback port in this process; resolves with the port. */
async function listen(peer) {
  const controllers = path.join(HERE, 'controllers')
  if (peer === 'node-raw') {
    const { nodeRawHandler } = await import('./servers/_node-raw-handler.mjs')
    const server = createServer(nodeRawHandler)
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    return server.address().port
  }
  if (peer === 'fastify') {
    const { fastifyApp } = await import('./servers/_fastify-app.mjs')
    const app = fastifyApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server.address().port
  }
  if (peer === 'hono-node') {
    const { serve } = await import('@hono/node-server')
    const { app } = await import('./servers/_hono-app.mjs')
    return new Promise((resolve) => serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (i) => resolve(i.port)))
  }
  if (peer === 'uws-raw') {
    const { default: uWS } = await import('uWebSockets.js')
    const { uwsRawApp } = await import('./servers/_uws-raw-app.mjs')
    return new Promise((resolve) =>
      uwsRawApp().listen('127.0.0.1', 0, (socket) => resolve(uWS.us_socket_local_port(socket))),
    )
  }
  const { createApp } = await import('routeless')
  const app = await createApp(controllers)
  const { serve } = await import(peer === 'routeless-uws' ? 'routeless/uws' : 'routeless/node')
  return (await serve(app, { host: '127.0.0.1', port: 0 })).port
}

if (args.child) await child(args.child)
else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await parent()
