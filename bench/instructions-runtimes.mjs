#!/usr/bin/env node
/**
 * Instructions per request on Bun and Deno: `npm run bench:instructions`'s count, for servers that run in a runtime
 * other than node. Wall time on this two-core VM swings 30–50 % between rounds (BENCHMARKS), which is wider than the
 * gaps the Bun and Deno targets are about; a count is not.
 *
 * Method: each peer is `npm run bench`'s server (bench/run.mjs's `peerCommand`: bench/servers/<peer>.mjs run by the
 * bun or deno npm installs, or the CLI run by bun) started under `valgrind --tool=callgrind`, and this process is its
 * client, over one keep-alive connection, one request at a time (instructions.mjs's raw-socket client). It checks each
 * workload's answer, sends W requests of every workload (settling), then per workload W more (the warm-up) and N (the
 * measured phase), and asks callgrind for a dump after each phase (`callgrind_control --dump`): the measured phase's
 * dump ÷ N is the instructions per request. The main thread's count is the figure: it runs the JavaScript, the
 * runtime's HTTP server and the allocations. The runtimes' other threads (JavaScriptCore's JIT workers and heap
 * helpers, V8's) are counted apart and left out of the ratios: under valgrind, which runs one thread at a time, a heap
 * helper that spins waiting for work counts up to 20k instructions a request in some windows, where natively the same
 * threads take 1–2 % of the process's CPU time (/proc's per-thread ticks under 50,000 requests). Deno runs with
 * `--v8-flags=--single-threaded`, as node does in instructions.mjs: its compilers and collector are on the main
 * thread, in the count (its binary is stripped: they cannot be told apart). The client's own instructions are not
 * counted (another process).
 *
 * Usage: node bench/instructions-runtimes.mjs [--peers=bun-raw,hono-bun,elysia-bun,routeless-bun,routeless-bun-cli,
 *        deno-raw,hono-deno,routeless-deno] [--workloads=hello,params,echo] [--warmup=10000] [--requests=5000]
 *        [--keep=dir [--perf-map]] [--v8-flags=--a,--b (Deno: more of V8's flags)] [--json]
 * With --keep, `node bench/instructions-by-function.mjs DIR/BASE DIR/PEER WORKLOAD` lists the main thread's
 * instructions by function. Bun's binary names only a few of its functions and JavaScriptCore writes no map of its
 * JIT code here; Deno's binary is stripped, but with --perf-map V8 writes its map (`--perf-basic-prof`), which names
 * the JavaScript (the app's, and Deno's own `ext:` modules).
 * The defaults are twice instructions.mjs's warm-up and five times its N: with W = 5,000 and N = 2,000, Deno's counts
 * moved by up to half between runs (V8 still tiering up, and its collections lumpy in a short window), with these two
 * runs of raw Deno.serve agree within 0.5 % on hello and the echo and 6 % on params.
 * Needs valgrind (apt-get install valgrind) and a build (`npm run build`: the CLI peer runs dist/bin.js). A peer takes
 * one and a half to three minutes.
 * @module
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { checkAnswers, kilo, sendMany, socketClient, WORKLOADS } from './instructions.mjs'
import { peerCommand, startServer } from './run.mjs'

/** The peers, by runtime; the first of each is the base its ratios are taken against, then the pairs of the targets. */
const RUNTIMES = {
  bun: {
    peers: ['bun-raw', 'hono-bun', 'elysia-bun', 'routeless-bun', 'routeless-bun-cli'],
    pairs: [
      ['routeless-bun', 'hono-bun'],
      ['routeless-bun-cli', 'elysia-bun'],
      ['routeless-bun', 'bun-raw'],
    ],
  },
  deno: {
    peers: ['deno-raw', 'hono-deno', 'routeless-deno'],
    pairs: [
      ['routeless-deno', 'hono-deno'],
      ['routeless-deno', 'deno-raw'],
    ],
  },
}

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const peers = (
  args.peers ??
  Object.values(RUNTIMES)
    .flatMap((r) => r.peers)
    .join(',')
).split(',')
for (const p of peers)
  if (!Object.values(RUNTIMES).some((r) => r.peers.includes(p))) throw new Error(`unknown peer ${p}`)
const workloads = (args.workloads ?? 'hello,params,echo').split(',')
const warmup = Number(args.warmup ?? 10000)
const requests = Number(args.requests ?? 5000)
if (!(requests > 0 && warmup >= 0)) throw new Error('--requests must be > 0 and --warmup ≥ 0')

/** Runs `peer` under callgrind, drives it, resolves with { workload: { instructions } } per request. */
async function count(peer) {
  const dir = args.keep ? path.resolve(args.keep, peer) : mkdtempSync(path.join(tmpdir(), 'routeless-instructions-'))
  mkdirSync(dir, { recursive: true })
  let command = peerCommand(peer)
  const deno = /deno$/.test(command[0])
  const v8 = [
    '--single-threaded',
    ...(deno && 'perf-map' in args ? ['--perf-basic-prof'] : []),
    ...(args['v8-flags'] ? args['v8-flags'].split(',') : []),
  ]
  if (deno) command = [command[0], 'run', `--v8-flags=${v8.join(',')}`, ...command.slice(2)]
  const server = startServer(
    [
      'valgrind',
      '--tool=callgrind',
      '--separate-threads=yes',
      `--callgrind-out-file=${path.join(dir, 'cg.out')}`,
      ...command,
    ],
    '0-1',
  )
  try {
    const port = await server.port
    const dump = () => execFileSync('callgrind_control', ['--dump', String(server.child.pid)], { stdio: 'ignore' })
    const send = await socketClient(peer, port)
    await checkAnswers(peer, send, workloads)
    for (const w of workloads) await sendMany(send, WORKLOADS[w], warmup)
    dump()
    for (const w of workloads) {
      await sendMany(send, WORKLOADS[w], warmup)
      dump()
      await sendMany(send, WORKLOADS[w], requests)
      dump()
    }
    // Per dump, a file per thread (`cg.out.K-TT`, thread 01 the main one): cg.out.1 is the start-up and the settling,
    // then each workload's warm-up and its measured phase.
    const dumps = new Map()
    for (const f of readdirSync(dir)) {
      const m = /^cg\.out\.(\d+)-(\d+)$/.exec(f)
      if (m) dumps.set(Number(m[1]), [...(dumps.get(Number(m[1])) ?? []), [Number(m[2]), path.join(dir, f)]])
    }
    if (dumps.size !== 1 + 2 * workloads.length)
      throw new Error(`${peer}: ${dumps.size} dumps, expected ${1 + 2 * workloads.length}`)
    const totalOf = (file) => Number(/^totals: (\d+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? 0)
    const out = {}
    workloads.forEach((w, i) => {
      let main = 0
      let others = 0
      for (const [thread, file] of dumps.get(3 + 2 * i)) {
        if (thread === 1) main += totalOf(file)
        else others += totalOf(file)
      }
      out[w] = { instructions: main / requests, others: others / requests }
    })
    return out
  } finally {
    await server.stop()
    if (args.keep) {
      // What bench/instructions-by-function.mjs reads: the phases' order and N, and V8's map of its code (Deno).
      writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ workloads, requests, thread: '-01' }))
      const map = `/tmp/perf-${server.child.pid}.map`
      if (existsSync(map)) renameSync(map, path.join(dir, 'perf.map'))
    } else rmSync(dir, { recursive: true, force: true })
  }
}

/** One Markdown table per runtime: instructions per request of each peer, then the ratios of the targets. */
function table(results) {
  const out = [
    `Instructions per request on the main thread (callgrind, N = ${requests} counted after a warm-up of W = ${warmup};`,
    "the other threads' in parentheses, not in the ratios)",
    '',
  ]
  const row = (cells) => `| ${cells.join(' | ')} |`
  for (const [runtime, { peers: all, pairs }] of Object.entries(RUNTIMES)) {
    const here = all.filter((p) => p in results)
    if (!here.length) continue
    const ratios = pairs.filter(([a, b]) => a in results && b in results)
    out.push(
      row([runtime, ...here, ...ratios.map(([a, b]) => `${a} ÷ ${b}`)]),
      row(['---', ...[...here, ...ratios].map(() => '---:')]),
    )
    const n = (p, w) => results[p][w].instructions
    for (const w of workloads)
      out.push(
        row([
          w,
          ...here.map((p) => `${kilo(n(p, w))} (${kilo(results[p][w].others)})`),
          ...ratios.map(([a, b]) => `${(n(a, w) / n(b, w)).toFixed(2)}×`),
        ]),
      )
    out.push('')
  }
  return out.join('\n')
}

const results = {}
for (const peer of peers) {
  const started = Date.now()
  results[peer] = await count(peer)
  const line = workloads.map(
    (w) => `${w} ${kilo(results[peer][w].instructions)} (other threads ${kilo(results[peer][w].others)})`,
  )
  process.stderr.write(`${peer}: ${line.join('; ')} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
}
process.stdout.write(
  'json' in args ? `${JSON.stringify({ requests, warmup, results }, null, 2)}\n` : `${table(results)}\n`,
)
