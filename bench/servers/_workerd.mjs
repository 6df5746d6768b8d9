// Serves a Worker module on Cloudflare's workerd (the binary the `workerd` devDependency installs), for the workerd
// peers (workerd-raw.mjs, hono-workerd.mjs, routeless-workerd.mjs, each run by node): the module is built into a
// temporary folder when the peer starts, workerd serves it with the config the conformance suite uses
// (test/runtimes/workerd-config.mjs: its compatibility date, where `nodejs_compat` is the default) on a port the
// system picks, which workerd reports on its control descriptor. This process stays workerd's parent, so that the
// harness counts workerd's CPU with its own (its whole process tree); it forwards SIGINT and SIGTERM to workerd (or
// to the build still running) and exits when workerd does. It does not import _common.mjs, whose exit on a signal
// would leave workerd running.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { workerdConfig } from '../../test/runtimes/workerd-config.mjs'

const HERE = path.dirname(fileURLToPath(import.meta.url))
export const ROOT = path.join(HERE, '..', '..')
const WORKERD = path.join(ROOT, 'node_modules', 'workerd', 'bin', 'workerd')

/**
 * Bundles `source` (an ES module whose default export has `fetch`, its imports relative to bench/servers) into `out`
 * with esbuild, one ES module, resolved as routeless's `build --target=worker` and Workers' own bundler resolve.
 */
export async function bundle(source, out) {
  const esbuild = await import('esbuild')
  await esbuild.build({
    stdin: { contents: source, resolveDir: HERE, sourcefile: 'worker-entry.js', loader: 'js' },
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser', 'import', 'default'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
    legalComments: 'none',
  })
  await esbuild.stop() // its service process would otherwise stay, idle, in the process tree the harness measures
}

/** The child running now (a build, then workerd): a signal is passed on to it. */
let current

/** Runs `command` (stdout to stderr: this process's stdout is the harness's) and resolves once it exits with 0. */
export function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = (current = spawn(command, args, { cwd: ROOT, stdio: ['ignore', process.stderr, 'inherit'] }))
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${[command, ...args].join(' ')} exited ${code}`)),
    )
  })
}

/**
 * Builds the Worker with `build(out)` into a temporary folder and serves it with `workerd serve`; prints
 * `ready <port>` once workerd listens.
 */
export async function serveWorker(build) {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-bench-workerd-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  let workerd
  for (const name of ['SIGINT', 'SIGTERM']) {
    process.on(name, () => {
      current?.kill(name)
      if (workerd) {
        // workerd ends within milliseconds of SIGTERM; should it not, the harness's SIGKILL must not leave it behind.
        setTimeout(() => workerd.kill('SIGKILL'), 3000).unref()
      } else {
        remove() // still building
        process.exit(0)
      }
    })
  }
  try {
    await build(path.join(dir, 'worker.js'))
  } catch (error) {
    remove()
    throw error
  }
  const config = path.join(dir, 'workerd.capnp')
  writeFileSync(config, workerdConfig('worker.js'))
  workerd = current = spawn(WORKERD, ['serve', config, '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  })
  workerd.on('exit', (code, signal) => {
    remove()
    // Ended by the signal passed on (SIGINT): a normal stop.
    process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1))
  })
  // workerd writes one JSON object a line on the control descriptor: {"event":"listen","socket":"http","port":N}.
  let control = ''
  workerd.stdio[3].on('data', (d) => {
    control += d
    let newline
    while ((newline = control.indexOf('\n')) >= 0) {
      const line = control.slice(0, newline).trim()
      control = control.slice(newline + 1)
      if (!line) continue
      const event = JSON.parse(line)
      if (event.event === 'listen') process.stdout.write(`ready ${event.port}\n`)
    }
  })
}
