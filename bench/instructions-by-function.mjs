#!/usr/bin/env node
/**
 * Where a peer's instructions per request go, function by function, and how two peers differ: reads the callgrind
 * dumps `npm run bench:instructions -- --keep=DIR --perf-map` kept, and names V8's JIT code (callgrind sees only an
 * address, `0x…`) from the map of it node wrote (`--perf-basic-prof`): `JS:*onRequest …runtime-….js:6939` is optimised
 * JavaScript, `JS:^` baseline code, `RegExp:…` a compiled regular expression. Counts are exclusive (a function's own
 * instructions) and per request of the measured phase.
 *
 * Usage:
 *   node bench/instructions-by-function.mjs DIR/PEER WORKLOAD [--top=40]              one peer
 *   node bench/instructions-by-function.mjs DIR/BASE DIR/PEER WORKLOAD [--top=40]     PEER against BASE, largest gaps first
 * WORKLOAD is one of the run's --workloads (the run's order and N are read from its dumps' command line).
 *
 * A caveat: V8 reuses the addresses of code it collected, and the map lists every code object ever made. An address is
 * named by the last entry written that covers it, which is the code there at the end of the run: the measured phase's,
 * at steady state. A name such as a start-up module's (`JS:^ …/fast-uri/lib/utils.js`) on a hot path is a stale one.
 * @module
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'

const args = process.argv.slice(2)
const flags = Object.fromEntries(args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')))
const [first, second, third] = args.filter((a) => !a.startsWith('--'))
const top = Number(flags.top ?? 40)

if (!first || !second) {
  console.error('usage: instructions-by-function.mjs [DIR/BASE] DIR/PEER WORKLOAD [--top=40]')
  process.exit(2)
}
const [base, peer, workload] = third === undefined ? [undefined, first, second] : [first, second, third]

/** The run's option `name`, from the command line callgrind wrote at the top of a dump. */
function optionOf(file, name) {
  return new RegExp(`--${name}=(\\S+)`).exec(readFileSync(file, 'utf8').slice(0, 4000))?.[1]
}

/**
 * The measured phase's dump of `workload` in `dir`, and its N: cg.out.1 is the start-up, then a warm-up and a measured
 * phase per workload, in the order of the run's --workloads.
 */
function dumpOf(dir, name) {
  // A run of bench/instructions-runtimes.mjs says its order and N in run.json, and dumps a file per thread.
  const run = path.join(dir, 'run.json')
  if (existsSync(run)) {
    const { workloads, requests, thread } = JSON.parse(readFileSync(run, 'utf8'))
    const i = workloads.indexOf(name)
    if (i < 0) throw new Error(`${dir}: the run measured ${workloads.join(', ')}, not ${name}`)
    return { file: path.join(dir, `cg.out.${3 + 2 * i}${thread}`), requests }
  }
  const startUp = path.join(dir, 'cg.out.1')
  if (!existsSync(startUp)) throw new Error(`${dir}: no dumps (${readdirSync(dir).join(' ')})`)
  const order = (optionOf(startUp, 'workloads') ?? '').split(',')
  const i = order.indexOf(name)
  if (i < 0) throw new Error(`${dir}: the run measured ${order.join(', ')}, not ${name}`)
  return { file: path.join(dir, `cg.out.${3 + 2 * i}`), requests: Number(optionOf(startUp, 'requests') ?? 1000) }
}

/** The JIT map: [start, end, name] in the order written (later entries cover reused addresses). */
function perfMap(dir) {
  const file = path.join(dir, 'perf.map')
  if (!existsSync(file)) return []
  const out = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line)
    if (m) out.push([Number.parseInt(m[1], 16), Number.parseInt(m[1], 16) + Number.parseInt(m[2], 16), m[3]])
  }
  return out
}

/** Exclusive instructions per request by function name. */
function functions(dir) {
  const { file, requests: n } = dumpOf(dir, workload)
  const map = perfMap(dir)
  const named = new Map()
  const nameOf = (address) => {
    if (!named.has(address)) {
      let name
      for (let i = map.length - 1; i >= 0; i--) {
        if (map[i][0] <= address && address < map[i][1]) {
          name = map[i][2]
          break
        }
      }
      named.set(address, name)
    }
    return named.get(address)
  }
  const text = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=no', file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  const out = new Map()
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)$/.exec(line)
    if (!m || m[3].startsWith('PROGRAM TOTALS')) continue
    let name = m[3]
    // The frames below main come with the whole program under them (callgrind_annotate's threshold): not functions.
    // (By name on node; by share elsewhere: Bun's and Deno's event loops are unnamed addresses, each with over 60 %.)
    if (
      /^(\S*:)?(main|node::Start|node::NodeMainInstance|node::SpinEventLoop|\(below main\)|0x0+1ab70|__libc_start)/.test(
        name,
      ) ||
      Number(m[2]) > 60
    )
      continue
    const jit = /^\?\?\?:0x([0-9a-f]+)(?:'\d+)? \[\?\?\?\]$/.exec(name)
    // (A chunk's hash left out: two builds' functions compare by name.)
    if (jit) name = `JIT ${nameOf(Number.parseInt(jit[1], 16))?.replace(/-[\w-]{8}\.js\b/, '.js') ?? name}`
    else name = withoutArguments(name.replace(/^\?\?\?:/, '').replace(/ \[[^\]]*\]$/, ''))
    const count = Number(m[1].replaceAll(',', '')) / n

    out.set(name, (out.get(name) ?? 0) + count)
  }
  return out
}

/** A C++ name without its parameter list (`f(int, char**) const` → `f`; `(anonymous namespace)` stays). */
function withoutArguments(name) {
  const end = name.replace(/ const$/, '')
  if (!end.endsWith(')')) return name
  let depth = 0
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] === ')') depth++
    else if (end[i] === '(' && --depth === 0) return end.slice(0, i)
  }
  return name
}

const fmt = (x) => Math.round(x).toLocaleString('en-US').padStart(9)
let b = functions(peer)
if (base === undefined) {
  const total = [...b.values()].reduce((s, x) => s + x, 0)
  console.log(`${path.basename(peer)}, ${workload}: ${fmt(total).trim()} instructions per request in functions`)
  for (const [name, x] of [...b].sort((p, q) => q[1] - p[1]).slice(0, top)) console.log(`${fmt(x)}  ${name}`)
} else {
  // Two builds: their functions by name, not by line (a change moves the lines below it).
  const byName = (m) => {
    const out = new Map()
    for (const [k, x] of m) {
      const name = k.replace(/:\d+:\d+$/, '')
      out.set(name, (out.get(name) ?? 0) + x)
    }
    return out
  }
  const a = byName(functions(base))
  b = byName(b)
  const names = new Set([...a.keys(), ...b.keys()])
  const sum = (m) => [...m.values()].reduce((s, x) => s + x, 0)
  console.log(`${workload}: ${path.basename(base)} ${fmt(sum(a)).trim()}, ${path.basename(peer)} ${fmt(sum(b)).trim()}`)
  console.log(`${path.basename(base).padStart(9)} ${path.basename(peer).padStart(9)}      gap  function`)
  const rows = [...names]
    .map((k) => [k, a.get(k) ?? 0, b.get(k) ?? 0])
    .sort((p, q) => Math.abs(q[2] - q[1]) - Math.abs(p[2] - p[1]))
  for (const [name, x, y] of rows.slice(0, top))
    console.log(
      `${fmt(x)} ${fmt(y)} ${
        (y - x >= 0 ? '+' : '') +
        fmt(y - x)
          .trim()
          .padStart(8)
      }  ${name}`,
    )
}
