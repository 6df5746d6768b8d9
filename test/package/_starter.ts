/**
 * The starter as a user meets it: create-routeless and routeless packed (`npm pack`, which builds create-routeless;
 * routeless's dist must be built: `npm test` builds first), `npm exec` of the create-routeless tarball to write a
 * project, and the routeless tarball installed into it (`--prefer-offline`: from npm's cache where it can).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PACKAGE, REPO, run, userEnv, type Run } from './_project.ts'
import { workerdConfig } from '../runtimes/workerd-config.mjs'

export const STARTER = path.join(REPO, 'packages/create-routeless')
export const BUN_DIR = path.join(REPO, 'node_modules/@oven/bun-linux-x64/bin')
export const DENO_DIR = path.join(REPO, 'node_modules/@deno/linux-x64-glibc')

export interface Packs {
  dir: string
  routeless: string
  starter: string
  remove(): void
}

/** Packs routeless and create-routeless into a new temporary folder. */
export async function packBoth(): Promise<Packs> {
  if (!existsSync(path.join(PACKAGE, 'dist/index.js')))
    throw new Error('packages/routeless/dist is missing: run `npm run build` first')
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-starter-'))
  const packs = path.join(dir, '.packs')
  mkdirSync(packs)
  for (const pkg of [PACKAGE, STARTER]) {
    const packed = await run('npm', ['pack', '--pack-destination', packs], { cwd: pkg, timeout: 120_000 })
    if (packed.code !== 0) throw new Error(`npm pack of ${pkg} failed: ${packed.stderr}`)
  }
  const tarball = (prefix: string) => path.join(packs, readdirSync(packs).find((f) => f.startsWith(prefix))!)
  return {
    dir,
    routeless: tarball('routeless-'),
    starter: tarball('create-routeless-'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** `npm create routeless@latest <name> -- <args>`, with the packed create-routeless in the place of @latest. */
export function create(packs: Packs, args: string[], cwd = packs.dir): Promise<Run> {
  return run('npm', ['exec', '--yes', `--package=${packs.starter}`, '--', 'create-routeless', ...args], {
    cwd,
    timeout: 120_000,
  })
}

/**
 * Installs the project's dependencies with routeless from its tarball. `omit` names development tools the test does
 * not run and npm's cache does not hold (wrangler: the test serves the Worker with workerd itself, which is what
 * `wrangler dev` runs).
 */
export async function install(packs: Packs, dir: string, omit: string[] = []): Promise<void> {
  const file = path.join(dir, 'package.json')
  const pkg = JSON.parse(readFileSync(file, 'utf8'))
  for (const name of omit) delete pkg.devDependencies[name]
  writeFileSync(file, JSON.stringify(pkg, null, 2))
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', packs.routeless], {
    cwd: dir,
    timeout: 300_000,
  })
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`)
}

/** The user's PATH with Bun and Deno on it, as after installing them. */
export function withRuntimes(): Record<string, string> {
  return { PATH: `${BUN_DIR}:${DENO_DIR}:${process.env.PATH}`, NO_COLOR: '1' }
}

/** A server started by a package script: its own process group (the script runner's children stop with it). */
export function serve(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd, env: userEnv({ ...withRuntimes(), ...env }), detached: true })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const url = new Promise<string>((resolve, reject) => {
    // The routeless CLI says it on stdout, Deno.serve on stderr.
    const listening = () => {
      const m = /listening on (http:\/\/[^\s/]+)/i.exec(output)
      if (m) resolve(m[1]!)
    }
    child.stdout.on('data', listening)
    child.stderr.on('data', listening)
    child.on('close', () => reject(new Error(`exited before listening: ${output}`)))
  })
  url.catch(() => {})
  return {
    url,
    output: () => output,
    /** SIGTERM to the whole group; resolves with the exit code of the script runner. */
    stop: () => {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM')
      return exited
    },
    /** SIGKILL to the whole group, whatever is left of it. */
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // the group is gone
      }
    },
  }
}

/** What the scaffolded controller answers, asked over HTTP. */
export async function answers(url: string): Promise<[number, unknown][]> {
  const out: [number, unknown][] = []
  for (const p of ['/?name=you', '/add/2/3', '/add/two/3']) {
    const res = await fetch(`${url}${p}`)
    const body = await res.json()
    out.push([res.status, res.status === 400 ? (body as { message: string }).message : body])
  }
  return out
}

export const EXPECTED_ANSWERS: [number, unknown][] = [
  [200, { message: 'Hello, you!' }],
  [200, { sum: 5 }],
  [400, 'Invalid parameters: a: must be a number, got "two"'],
]

export const WORKERD = path.join(REPO, 'node_modules/.bin/workerd')

/**
 * Serves a Workers project's build the way `wrangler dev` does, with workerd itself: a config made from the
 * project's wrangler.toml (`main`, `compatibility_date`, `compatibility_flags`), on a port the system picks (workerd
 * reports it on its control descriptor).
 */
export function serveWorker(dir: string) {
  const toml = readFileSync(path.join(dir, 'wrangler.toml'), 'utf8')
  const field = (name: string) => new RegExp(`^${name}\\s*=\\s*(.+)$`, 'm').exec(toml)?.[1]
  const main = JSON.parse(field('main') ?? 'null') as string
  const date = JSON.parse(field('compatibility_date') ?? 'null') as string
  const flags = JSON.parse(field('compatibility_flags') ?? '[]') as string[]
  writeFileSync(path.join(dir, 'workerd.capnp'), workerdConfig(main, date, flags))
  const child = spawn(WORKERD, ['serve', 'workerd.capnp', '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const url = new Promise<string>((resolve, reject) => {
    let control = ''
    ;(child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
      control += d
      const listen = control
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { event: string; port: number })
        .find((e) => e.event === 'listen')
      if (listen) resolve(`http://127.0.0.1:${listen.port}`)
    })
    child.on('close', () => reject(new Error(`workerd exited before listening: ${output}`)))
  })
  url.catch(() => {})
  return { url, output: () => output, kill: () => child.exitCode === null && child.kill('SIGKILL') }
}
