/**
 * The conformance suite's other runtimes: a fixture application served by Bun (`Bun.serve`), Deno (`Deno.serve`) and
 * Cloudflare's workerd (the tree built with `routeless build --target=worker`, served by `workerd serve` with a
 * generated config), each a child process on a random loopback port, started once per describe. The binaries are the
 * ones npm installed (devDependencies); Bun and Deno import the built package (`npm run build` first).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FixtureSpec } from './_apps.ts'
import { analyze, loadTypeScript } from '../packages/routeless/src/compiler/analysis/analyze.ts'
import { collectSources } from '../packages/routeless/src/runtime/app/options.ts'
import type { Manifest } from '../packages/routeless/src/runtime/contract/manifest.ts'
import { buildWorker } from '../packages/routeless/src/compiler/bundle/worker.ts'
import { COMPATIBILITY_DATE, workerdConfig } from './runtimes/workerd-config.mjs'

export type Runtime = 'bun' | 'deno' | 'workerd'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`))

/** Each runtime's binary, as npm installed it. */
export const BINARIES: Record<Runtime, () => string> = {
  bun: () => path.join(packageDir('@oven/bun-linux-x64'), 'bin', 'bun'),
  deno: () => path.join(packageDir('@deno/linux-x64-glibc'), 'deno'),
  workerd: () => path.join(packageDir('workerd'), 'bin', 'workerd'),
}

// The config template and its compatibility date are shared with the benchmark's workerd peers (bench/servers).
export { COMPATIBILITY_DATE, workerdConfig } from './runtimes/workerd-config.mjs'

/** Why `spec` cannot be served by another process, or undefined when it can (its options are plain data). */
export function notPortable(spec: FixtureSpec | undefined): string | undefined {
  if (!spec) return 'the app is built by the test itself (a module map, a hand-made option), not from a fixture tree'
  const functions = Object.entries(spec.options)
    .filter(([, v]) => hasFunction(v))
    .map(([k]) => k)
  return functions.length
    ? `its options hold functions (${functions.join(', ')}), which cannot reach another process`
    : undefined
}

function hasFunction(value: unknown): boolean {
  if (typeof value === 'function') return true
  if (typeof value !== 'object' || value === null) return false
  return Object.values(value).some(hasFunction)
}

/** Every prefix a describe of this test file will serve on another runtime (`register`, at collection time). */
const registered = new Set<string>()
let manifest: Promise<Manifest> | undefined

/** Notes the trees `spec` serves, so that one analysis covers them all. */
export function register(spec: FixtureSpec): void {
  for (const p of spec.prefixes) registered.add(p)
}

/**
 * The signature manifest of every registered tree, relative to the repository: one TypeScript program per test file
 * (a program per tree costs seconds each), made when the first runtime starts.
 */
export function manifestOf(prefixes: string[]): Promise<Manifest> {
  for (const p of prefixes) if (!registered.has(p)) throw new Error(`${p} was not registered before the tests ran`)
  manifest ??= (async () => {
    const ts = await loadTypeScript(ROOT)
    if (!ts) throw new Error('typescript is a devDependency: npm ci installs it')
    const files = new Map<string, string>()
    for (const s of collectSources([...registered], ROOT)) files.set(s.file, s.parts.join('/'))
    return analyze(
      ts,
      [...files].map(([file, module]) => ({ file, module })),
      ROOT,
    )
  })()
  return manifest
}

export interface RunningRuntime {
  url: string
  stop: () => Promise<void>
}

const children = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

/** Serves `spec` on `runtime` in a child process; resolves once it listens. */
export async function startRuntime(runtime: Runtime, spec: FixtureSpec): Promise<RunningRuntime> {
  const dir = mkdtempSync(path.join(tmpdir(), `routeless-${runtime}-`))
  const manifest = await manifestOf(spec.prefixes)
  if (runtime === 'workerd') {
    const out = path.join(dir, 'worker.js')
    await buildWorker({ prefixes: spec.prefixes, out, cwd: ROOT, options: { ...spec.options }, manifest })
    const served = await serveModule('workerd', out)
    return {
      url: served.url,
      stop: async () => {
        await served.stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify({ ...spec, manifest, cwd: ROOT }))
  const script = fileURLToPath(new URL('./runtimes/serve.mjs', import.meta.url))
  const args = runtime === 'bun' ? [script] : ['run', '--allow-all', '--quiet', script]
  const child = spawnChild(BINARIES[runtime](), [...args, path.join(dir, 'spec.json')], {})
  return withCleanup(await running(runtime, child, /listening (http:\/\/\S+)/), dir)
}

export interface ModuleOptions {
  /** Text bindings of the Worker (workerd only): `this.env.NAME`. */
  bindings?: Record<string, string>
  /** Environment variables of the child. */
  env?: Record<string, string>
  /** The Worker's compatibility date (workerd only; default `COMPATIBILITY_DATE`). */
  compatibilityDate?: string
}

/**
 * Serves a built module (`routeless build --target=worker`) as each runtime serves a module whose default export has
 * `fetch`: `workerd serve` with a generated config, `deno serve`, `bun <file>`.
 */
export async function serveModule(
  runtime: Runtime,
  file: string,
  options: ModuleOptions = {},
): Promise<RunningRuntime> {
  if (runtime === 'workerd') {
    const config = path.join(path.dirname(file), `${path.basename(file)}.capnp`)
    const date = options.compatibilityDate ?? COMPATIBILITY_DATE
    writeFileSync(config, workerdConfig(path.basename(file), date, [], options.bindings))
    const child = spawnChild(BINARIES.workerd(), ['serve', config, '--control-fd=3'], options.env ?? {}, true)
    return withCleanup(await running(runtime, child, undefined), undefined, config)
  }
  const args = runtime === 'deno' ? ['serve', '--allow-net', '--host=127.0.0.1', '--port=0', file] : ['--port=0', file]
  const child = spawnChild(BINARIES[runtime](), args, options.env ?? {})
  const listens = runtime === 'deno' ? /Listening on (http:\/\/[\d.]+:\d+)/ : /server: (http:\/\/\S+)/
  return withCleanup(await running(runtime, child, listens))
}

function spawnChild(binary: string, args: string[], env: Record<string, string>, control = false): ChildProcess {
  const child = spawn(binary, args, {
    cwd: ROOT,
    stdio: control ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env },
  })
  children.add(child)
  return child
}

/** `stop` ends the child (and removes what was made for it). */
function withCleanup(started: { url: string; child: ChildProcess }, dir?: string, file?: string): RunningRuntime {
  const { child } = started
  return {
    url: started.url,
    stop: async () => {
      children.delete(child)
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (dir) rmSync(dir, { recursive: true, force: true })
      if (file) rmSync(file, { force: true })
    },
  }
}

/**
 * The child once it listens, with its URL: workerd reports its port on the control descriptor, the others print a
 * line `listens` matches (on stdout or stderr). A child that exits first, or is silent for 30 s, is an error.
 */
function running(
  runtime: Runtime,
  child: ChildProcess,
  listens: RegExp | undefined,
): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    let output = ''
    const fail = (error: Error) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      children.delete(child)
      reject(error)
    }
    const timer = setTimeout(() => fail(new Error(`${runtime} did not listen within 30 s:\n${output}`)), 30_000)
    const done = (url: string) => {
      clearTimeout(timer)
      child.removeListener('exit', exited)
      resolve({ url, child })
    }
    const exited = (code: number | null) => fail(new Error(`${runtime} exited (${code}) before listening:\n${output}`))
    child.once('exit', exited)
    const read = (d: Buffer) => {
      output += d
      const m = listens?.exec(output)
      if (m) done(m[1]!.replace('localhost', '127.0.0.1'))
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    if (!listens) {
      let control = ''
      ;(child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
        control += d
        for (const line of control.split('\n')) {
          if (!line.trim()) continue
          const event = JSON.parse(line) as { event: string; port: number }
          if (event.event === 'listen') done(`http://127.0.0.1:${event.port}`)
        }
      })
    }
  })
}
