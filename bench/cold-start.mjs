/**
 * Cold start on node: the wall time from spawning a server process to its first 200 (`GET /add/2/3`, polled every
 * 5 ms), for the starter's two routes served by `routeless` (its bin, as `npx routeless` runs it, bare and with
 * `--host`, and through `npx` itself) after `routeless build`, and by Hono on @hono/node-server. The runs interleave (routeless, npx, Hono,
 * routeless …) so that a load on the machine falls on all of them; the median of `--runs` (default 5) is printed.
 * Beside the wall time, the CPU time the server process had used by then (user + system, all its threads, and its
 * children that have exited: the checker of a start without a manifest; from /proc: Linux only), which a busy machine
 * inflates far less than the wall time.
 *
 *   node bench/cold-start.mjs [--runs=5]
 *   node bench/cold-start.mjs --instructions [--runs=1]
 *   node bench/cold-start.mjs --no-manifest [--runs=5]
 *
 * `--instructions`: each server (not npx) runs under `valgrind --tool=callgrind node --single-threaded`, and the figure
 * is the instructions it executed from its start to its first 200 (then SIGTERM; callgrind writes its count at the
 * exit): unlike the wall and CPU times, a count that the machine's other work does not move.
 *
 * `--no-manifest`: the development start, nothing built: `.routeless/` is removed before each routeless run, so the
 * CLI reads the controllers' types with TypeScript's checker (the repository's TypeScript) before it answers.
 *
 * On Node.js ≥ 22.1 the CLI keeps node's compile cache (`bin/routeless.js`), and the `routeless build` below fills it:
 * the runs measure a start with it warm, as every start after the first is. `NODE_DISABLE_COMPILE_CACHE=1` in this
 * script's environment (the servers inherit it) measures without.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = path.join(ROOT, 'packages/routeless/bin/routeless.js')
const instructions = process.argv.includes('--instructions')
const noManifest = process.argv.includes('--no-manifest')
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? (instructions ? 1 : 5))

// The starter, inside the repository so that `routeless`, `typescript` and `hono` resolve as in a user's project.
const dir = path.join(ROOT, '.data', 'cold-start')
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const shared = path.join(ROOT, 'packages/create-routeless/templates/shared')
cpSync(path.join(shared, 'controllers'), path.join(dir, 'controllers'), { recursive: true })
cpSync(path.join(shared, 'routeless.config.ts'), path.join(dir, 'routeless.config.ts'))
// The starter's own tsconfig: without it, tsx would take the repository's (whose paths point routeless at its sources).
cpSync(path.join(ROOT, 'packages/create-routeless/templates/node/tsconfig.json'), path.join(dir, 'tsconfig.json'))
writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n')
writeFileSync(
  path.join(dir, 'hono.mjs'),
  `import { Hono } from 'hono'
import { serve } from '@hono/node-server'
const app = new Hono()
app.get('/', (c) => c.json({ message: \`Hello, \${c.req.query('name') ?? 'world'}!\` }))
app.get('/add/:a/:b', (c) => {
  const a = Number(c.req.param('a')), b = Number(c.req.param('b'))
  if (Number.isNaN(a) || Number.isNaN(b)) return c.json({ message: 'Invalid parameters' }, 400)
  return c.json({ sum: a + b })
})
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) })
`,
)
const built = spawnSync(process.execPath, [BIN, 'build'], { cwd: dir, encoding: 'utf8' })
if (built.status !== 0) throw new Error(`routeless build failed: ${built.stderr}`)
process.stdout.write(built.stdout)

/** A port nothing listens on. */
function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(address.port))
    })
  })
}

/** 200 from `GET /add/2/3`, or false (refused, or another status). */
function ok(port) {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/add/2/3' }, (res) => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on('error', () => resolve(false))
    req.end()
  })
}

/**
 * CPU milliseconds (user + system, every thread) process `pid` has used, with those of the children it has reaped
 * (TypeScript 7's checker, a process of its own, has exited by the first answer), from /proc (NaN where there is none).
 */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime + stime + cutime + cstime, in ticks of 1/100 s
    return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100
  } catch {
    return Number.NaN
  }
}

/** Resolves once `child` has exited (by a signal too: then its `exitCode` stays null). */
const exited = (child) =>
  new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)))

/** Milliseconds from spawn to the first 200, and the CPU milliseconds the process used until then. */
async function coldStart(command, args, port) {
  const started = performance.now()
  let counted
  if (instructions) {
    counted = path.join(dir, `callgrind.${port}`)
    args = ['--tool=callgrind', `--callgrind-out-file=${counted}`, command, '--single-threaded', ...args]
    command = 'valgrind'
  }
  const child = spawn(command, args, {
    cwd: dir,
    // `routeless` alone, as `npm start` runs it: the address and log level from ROUTELESS_* variables.
    env: { ...process.env, PORT: String(port), ROUTELESS_HOST: `127.0.0.1:${port}`, ROUTELESS_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited ${child.exitCode}`)
      if (await ok(port)) {
        if (!counted) return [performance.now() - started, cpuOf(child.pid)]
        child.kill('SIGTERM')
        await exited(child)
        const total = Number(/^totals: (\d+)$/m.exec(readFileSync(counted, 'utf8'))[1])
        return [total / 1e6, Number.NaN]
      }
      await new Promise((r) => setTimeout(r, 5))
    }
  } finally {
    try {
      process.kill(-(child.pid ?? 0), 'SIGKILL')
    } catch {
      // exited already (--instructions: after its SIGTERM)
    }
    await exited(child)
  }
}

const SERVERS = {
  routeless: () => [process.execPath, [BIN]],
  // The invocation the README teaches: the address as a flag (the environment's ROUTELESS_HOST is overridden by it).
  'routeless --host': (port) => [process.execPath, [BIN, `--host=127.0.0.1:${port}`]],
  'npx routeless': () => ['npx', ['routeless']],
  hono: () => [process.execPath, ['hono.mjs']],
}
if (instructions || noManifest) delete SERVERS['npx routeless']
const times = Object.fromEntries(Object.keys(SERVERS).map((k) => [k, { wall: [], cpu: [] }]))
for (let i = 0; i < runs; i++) {
  for (const [name, make] of Object.entries(SERVERS)) {
    const port = await freePort()
    const [command, args] = make(port)
    if (noManifest) rmSync(path.join(dir, '.routeless'), { recursive: true, force: true })
    const [wall, cpu] = await coldStart(command, args, port)
    times[name].wall.push(wall)
    times[name].cpu.push(cpu)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const hono = { wall: median(times.hono.wall), cpu: median(times.hono.cpu) }
for (const [name, { wall, cpu }] of Object.entries(times)) {
  const w = median(wall)
  const c = median(cpu)
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ')
  if (instructions) {
    console.log(
      `${name.padEnd(16)} ${w.toFixed(0).padStart(5)} M instructions (${list(wall)}) ${(w / hono.wall).toFixed(2)}× Hono`,
    )
    continue
  }
  console.log(
    `${name.padEnd(16)} wall ${w.toFixed(0).padStart(5)} ms (${list(wall)}) ${(w / hono.wall).toFixed(2)}× Hono;` +
      ` CPU ${c.toFixed(0).padStart(5)} ms (${list(cpu)}) ${(c / hono.cpu).toFixed(2)}× Hono`,
  )
}
rmSync(dir, { recursive: true, force: true })
