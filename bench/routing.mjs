#!/usr/bin/env node
/**
 * Route resolution against the size of the controller tree, and start-up with 1,000 controller modules.
 * Prints JSON (bench/run.mjs turns it into a table); `--startup-child=<dir>` is the child process that times one
 * start-up.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApp, resolve } from 'routeless'

const SIZES = [10, 100, 1000, 10000]
const STARTUP_MODULES = 1000

function controllerClass(i) {
  // A fresh class per module, as separate files would give.
  return {
    [`C${i}`]: class {
      GET(id = '') {
        return { i, id }
      }
    },
  }[`C${i}`]
}

/** The smallest IncomingRequest: what an adapter hands the core (no Fetch objects). */
function incoming(target) {
  return {
    method: 'GET',
    target,
    header: () => null,
    body: () => null,
    request: () => new Request(`http://localhost${target}`),
    url: () => new URL(target, 'http://localhost'),
  }
}

function timeLoop(fn, iterations) {
  for (let i = 0; i < Math.min(iterations, 20000); i++) fn(i) // warm-up
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) fn(i)
  return Number(process.hrtime.bigint() - t0) / iterations
}

async function resolution() {
  const out = []
  for (const n of SIZES) {
    const modules = {}
    // Half top-level modules, half nested one level (`/group7/mod123`), so the tree has depth as well as width.
    for (let i = 0; i < n; i++) modules[i % 2 ? `group${i % 50}/mod${i}` : `mod${i}`] = { Default: controllerClass(i) }
    const app = await createApp({ modules })
    const paths = Array.from({ length: 1024 }, (_, k) => {
      const i = (k * 7919) % n
      return i % 2 ? `/group${i % 50}/mod${i}/42` : `/mod${i}/42`
    })
    const requests = paths.map(incoming)
    let sink = 0
    const resolveNs = timeLoop((i) => {
      sink += resolve(app.table, 'GET', paths[i & 1023]).kind.length
    }, 2_000_000)
    const handleNs = timeLoop((i) => {
      sink += app.handle(requests[i & 1023]).status
    }, 500_000)
    if (sink === 0) throw new Error('unreachable')
    out.push({ controllers: n, resolveNs, fetchUs: handleNs / 1000 })
  }
  return out
}

async function startup() {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-startup-'))
  try {
    for (let i = 0; i < STARTUP_MODULES; i++) {
      const sub = path.join(dir, `area${i % 20}`)
      mkdirSync(sub, { recursive: true })
      writeFileSync(
        path.join(sub, `resource${i}.mjs`),
        `export class Default {\n  GET(id = '', { fields }) { return { id, fields } }\n  POST({ name }) { return { name } }\n}\nexport class Items {\n  GET(id) { return id }\n}\n`,
      )
    }
    const runs = []
    for (let r = 0; r < 5; r++) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `--startup-child=${dir}`]).toString()
      runs.push(JSON.parse(out))
    }
    runs.sort((a, b) => a.ms - b.ms)
    return { modules: STARTUP_MODULES, handlers: runs[0].handlers, ms: runs[2].ms, runs: runs.length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const child = process.argv.find((a) => a.startsWith('--startup-child='))
if (child) {
  const t0 = performance.now()
  const app = await createApp(child.slice('--startup-child='.length))
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, handlers: app.table.rows.length }))
} else {
  process.stdout.write(`${JSON.stringify({ resolve: await resolution(), startup: await startup() }, null, 2)}\n`)
}
