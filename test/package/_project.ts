/**
 * A fresh npm project outside the repository with routeless installed from its packed tarball, as a user gets it:
 * `npm pack` of packages/routeless (its dist must be built: `npm test` builds first), then `npm install <tgz>`.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))
export const PACKAGE = path.join(REPO, 'packages/routeless')

const exec = promisify(execFile)

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment of a user's shell: none of this vitest run's own variables. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(VITEST|VITE_|TEST$|NODE_OPTIONS$|NODE_ENV$|NODE_COMPILE_CACHE$|ROUTELESS_)/.test(k)) continue
    env[k] = v
  }
  return { ...env, ...extra }
}

/** Runs a command to its end; never rejects on a non-zero exit. */
export async function run(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeout?: number },
): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(file, args, {
      cwd: options.cwd,
      env: userEnv(options.env),
      timeout: options.timeout ?? 60_000,
      maxBuffer: 16 << 20,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code?: number | string; stdout?: string; stderr?: string }
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: `${e.stderr ?? ''}${typeof e.code === 'string' ? e.code : ''}`,
    }
  }
}

/** Writes `files` (path → text) under `dir`. */
export function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
}

export interface Project {
  dir: string
  tarball: string
  /** `node_modules/.bin/routeless` of the project. */
  bin: string
  remove(): void
}

/** Packs routeless and installs the tarball, with `extra` packages, into a new project of `packageJson`. */
export async function installProject(packageJson: Record<string, unknown>, extra: string[]): Promise<Project> {
  if (!existsSync(path.join(PACKAGE, 'dist/index.js')))
    throw new Error('packages/routeless/dist is missing: run `npm run build` first')
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-user-'))
  const packs = path.join(dir, '.packs')
  mkdirSync(packs)
  const packed = await run('npm', ['pack', '--pack-destination', packs], { cwd: PACKAGE, timeout: 120_000 })
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`)
  const tarball = path.join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!)
  write(dir, {
    'package.json': JSON.stringify({ name: 'user-app', version: '1.0.0', private: true, ...packageJson }, null, 2),
  })
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...extra], {
    cwd: dir,
    timeout: 240_000,
  })
  if (installed.code !== 0) throw new Error(`npm install failed: ${installed.stderr}`)
  return {
    dir,
    tarball,
    bin: path.join(dir, 'node_modules/.bin/routeless'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A long-running child (a server): its output so far, and the URL once it prints "listening on". */
export function start(file: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  const child: ChildProcessWithoutNullStreams = spawn(file, args, { cwd: options.cwd, env: userEnv(options.env) })
  const out = { stdout: '', stderr: '' }
  child.stdout.on('data', (d) => (out.stdout += d))
  child.stderr.on('data', (d) => (out.stderr += d))
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, ...out })))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out.stdout)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => reject(new Error(`exited before listening: ${out.stdout}${out.stderr}`)))
  })
  listening.catch(() => {})
  return { child, out, done, listening }
}
