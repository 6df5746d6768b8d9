#!/usr/bin/env node
/**
 * Where a server's CPU time per request goes under load, function by function, kernel included, and how two peers
 * differ: the time-side companion of `bench/instructions-by-function.mjs`. Instructions decide sub-µs changes, but
 * capacity is time: code that runs few instructions per cycle, and the kernel's share (loopback TCP, waking the load
 * generator), weigh in time and not in a count.
 *
 * Method: each peer runs as in `npm run bench` (pinned to CPU 0, wrk on CPU 1, 100 connections, a warm-up window), node
 * with `--perf-basic-prof` so that perf can name V8's generated code; during the measured window
 * `perf record -e cpu-clock` samples the server's process (a software clock: this works in VMs without hardware
 * counters). A function's samples ÷ the sampling rate ÷ the requests wrk completed in the window is its µs per request.
 * Sampling error: a figure of n samples is good to about ±√n (at 2,999 Hz for 5 s, 0.1 µs per request is ~50 samples
 * at 100k requests/s).
 *
 * Usage:
 *   node bench/time-by-function.mjs --peers=node-raw,routeless-node [--workload=echo] [--duration=5] [--warmup=3]
 *        [--top=30] [--frequency=2999]
 * The first peer is the base: the table lists each function's µs per request in every peer and the gap to the base,
 * largest first, then the user and kernel totals. Needs perf (apt-get install linux-perf), wrk and taskset; node peers
 * only are named in full (Bun and Deno write no map of their JIT code here).
 * @module
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { peerCommand, runWrk, startServer, WORKLOADS } from './run.mjs'

const flags = Object.fromEntries(
  process.argv
    .slice(2)
    .filter((a) => a.startsWith('--'))
    .map((a) => a.slice(2).split('=')),
)
const peers = (flags.peers ?? '').split(',').filter(Boolean)
const workload = WORKLOADS[flags.workload ?? 'echo']
const duration = Number(flags.duration ?? 5)
const warmup = Number(flags.warmup ?? 3)
const top = Number(flags.top ?? 30)
const frequency = Number(flags.frequency ?? 2999)
if (peers.length === 0 || !workload) {
  console.error(`usage: time-by-function.mjs --peers=a,b [--workload=${Object.keys(WORKLOADS).join('|')}]`)
  process.exit(2)
}

const work = mkdtempSync(path.join(tmpdir(), 'routeless-perf-'))
const load = { loadCpu: '1', connections: 100 }

/** One peer under load: its µs per request by function (`[k]` kernel, `[.]` user space), and its requests/s. */
async function measure(peer) {
  const command = peerCommand(peer)
  if (command[0] === process.execPath) command.splice(1, 0, '--perf-basic-prof')
  const server = startServer(command, '0')
  try {
    const url = `http://127.0.0.1:${await server.port}${workload.path}`
    await runWrk(url, workload, warmup, load)
    const data = path.join(work, `${peer}.data`)
    const pid = String(server.child.pid)
    const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', String(frequency), '-o', data, '-p', pid], {
      stdio: 'ignore',
    })
    const recorded = new Promise((resolve) => perf.once('exit', resolve))
    await new Promise((r) => setTimeout(r, 200)) // perf attached
    const { requests } = await runWrk(url, workload, duration, load)
    perf.kill('SIGINT')
    await recorded
    return { requests, perSecond: requests / duration, functions: report(data, requests) }
  } finally {
    await server.stop()
  }
}

/** µs per request of each symbol in a perf data file. */
function report(data, requests) {
  const out = execFileSync(
    'perf',
    ['report', '-i', data, '--no-children', '--sort', 'sym', '-n', '--stdio', '--percent-limit', '0'],
    { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const functions = new Map()
  for (const line of out.split('\n')) {
    const m = /^\s+[\d.]+%\s+(\d+)\s+\[(.)\]\s+(.*?)\s*$/.exec(line)
    if (!m) continue
    // Chunk hashes and positions dropped, so that two builds line up.
    const name = `[${m[2]}] ${m[3].replace(/:\d+(:\d+)?$/, '').replace(/-[A-Za-z0-9_-]{8}\.js/, '.js')}`
    functions.set(name, (functions.get(name) ?? 0) + (Number(m[1]) / frequency / requests) * 1e6)
  }
  return functions
}

const results = []
for (const peer of peers) {
  results.push({ peer, ...(await measure(peer)) })
  console.error(`${peer}: ${Math.round(results.at(-1).perSecond)} requests/s`)
}
rmSync(work, { recursive: true, force: true })

const names = new Set(results.flatMap((r) => [...r.functions.keys()]))
const at = (r, name) => r.functions.get(name) ?? 0
const [base, ...others] = results
const gap = (name) => Math.max(0, ...others.map((r) => Math.abs(at(r, name) - at(base, name))))
const rows = [...names].sort((a, b) => (others.length ? gap(b) - gap(a) : at(base, b) - at(base, a))).slice(0, top)
const cell = (v) => v.toFixed(2).padStart(8)
console.log(`${workload.label}, µs of server CPU per request (perf cpu-clock at ${frequency} Hz, ${duration} s):`)
console.log(`${results.map((r) => r.peer.padStart(16)).join('')}${others.length ? '      gap' : ''}  function`)
for (const name of rows) {
  const g = others.length ? at(others[0], name) - at(base, name) : undefined
  const gapCell = g === undefined ? '' : `${g >= 0 ? ' +' : ' '}${g.toFixed(2).padStart(7)}`
  console.log(`${results.map((r) => cell(at(r, name)).padStart(16)).join('')}${gapCell}  ${name.slice(0, 120)}`)
}
const total = (r, kind) =>
  [...r.functions].reduce((s, [n, v]) => (kind === undefined || n.startsWith(kind) ? s + v : s), 0)
for (const [label, kind] of [
  ['user space', '[.]'],
  ['kernel', '[k]'],
  ['total', undefined],
])
  console.log(`${results.map((r) => cell(total(r, kind)).padStart(16)).join('')}  ${label}`)
