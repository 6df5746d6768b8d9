#!/usr/bin/env node
/**
 * `npm start` timed as a user meets it: spawns `npm start` in a checkout (default: this one) and reports, in ms from
 * the spawn, when the build step ended (the first "<example>: http://…" line: start-examples.mjs prints it as it
 * spawns the examples) and when each example first answered HTTP (any status) on 8080, 8081 and 8082; then stops
 * them all. Ports 8080–8082 must be free.
 * Run: node bench/npm-start.mjs [checkout]   (figures go into docs/BENCHMARKS.md by hand)
 */
import { spawn } from 'node:child_process'
import path from 'node:path'

const dir = path.resolve(process.argv[2] ?? '.')
const PORTS = { configurations: 8080, translation: 8081, verification: 8082 }
const LIMIT = 180_000

const started = performance.now()
const since = () => Math.round(performance.now() - started)
const child = spawn('npm', ['start'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
const times = {}
let output = ''
const seen = (chunk) => {
  output += chunk
  if (times.build === undefined && /^\w+: http:\/\/127\.0\.0\.1:\d+/m.test(output)) times.build = since()
}
child.stdout.on('data', seen)
child.stderr.on('data', seen)

async function answers(port) {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) })
    return true
  } catch {
    return false
  }
}

while (Object.keys(PORTS).some((name) => times[name] === undefined) && since() < LIMIT && child.exitCode === null) {
  await Promise.all(
    Object.entries(PORTS).map(async ([name, port]) => {
      if (times[name] === undefined && (await answers(port))) times[name] = since()
    }),
  )
  await new Promise((r) => setTimeout(r, 50))
}
const all = Object.keys(PORTS).every((name) => times[name] !== undefined)
try {
  process.kill(-child.pid, 'SIGTERM')
} catch {}
console.log(JSON.stringify({ ...times, all: all ? Math.max(...Object.keys(PORTS).map((n) => times[n])) : null }))
if (!all) {
  console.error(output.split('\n').slice(-40).join('\n'))
  process.exitCode = 1
}
