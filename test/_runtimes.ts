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
import { analyze, loadTypeScript } from '../packages/routeless/src/binding/analyze.ts'
import { collectSources } from '../packages/routeless/src/app/options.ts'
import type { Manifest } from '../packages/routeless/src/binding/manifest.ts'
import { buildWorker } from '../packages/routeless/src/bundle/worker.ts'

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

/** The compatibility date the generated workerd config (and the README's wrangler.toml) names. */
export const COMPATIBILITY_DATE = '2026-11-01'

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
  let child: ChildProcess
  if (runtime === 'workerd') {
    await buildWorker({
      prefixes: spec.prefixes,
      out: path.join(dir, 'worker.js'),
      cwd: ROOT,
      options: { ...spec.options },
      manifest,
    })
    writeFileSync(path.join(dir, 'config.capnp'), workerdConfig('worker.js'))
    child = spawn(BINARIES.workerd(), ['serve', path.join(dir, 'config.capnp'), '--control-fd=3'], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    })
  } else {
    writeFileSync(path.join(dir, 'spec.json'), JSON.stringify({ ...spec, manifest, cwd: ROOT }))
    const script = fileURLToPath(new URL('./runtimes/serve.mjs', import.meta.url))
    const args = runtime === 'bun' ? [script] : ['run', '--allow-all', '--quiet', script]
    child = spawn(BINARIES[runtime](), [...args, path.join(dir, 'spec.json')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    })
  }
  children.add(child)
  const stop = async () => {
    children.delete(child)
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    return { url: await listening(runtime, child), stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** The URL the child listens on: workerd reports its port on the control descriptor, Bun and Deno print a line. */
function listening(runtime: Runtime, child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = ''
    let stdout = ''
    child.stderr!.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => reject(new Error(`${runtime} did not listen within 30 s:\n${stderr}`)), 30_000)
    const done = (url: string) => {
      clearTimeout(timer)
      resolve(url)
    }
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${runtime} exited (${code}) before listening:\n${stdout}${stderr}`))
    })
    if (runtime === 'workerd') {
      child.stdout!.on('data', (d) => (stdout += d))
      let control = ''
      ;(child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
        control += d
        for (const line of control.split('\n')) {
          if (!line.trim()) continue
          const event = JSON.parse(line) as { event: string; port: number }
          if (event.event === 'listen') done(`http://127.0.0.1:${event.port}`)
        }
      })
    } else {
      child.stdout!.on('data', (d) => {
        stdout += d
        const m = /listening (http:\/\/\S+)/.exec(stdout)
        if (m) done(m[1]!)
      })
    }
  })
}

/** A workerd config serving the ES module `main` (beside it) on 127.0.0.1, on a port the system picks. */
export function workerdConfig(main: string, compatibilityDate = COMPATIBILITY_DATE, flags: string[] = []): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(main)}) ],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  compatibilityFlags = ${JSON.stringify(flags)},
);
`
}
