/**
 * `routeless build` compiles the controllers and the config for node (`.routeless/node/`), and `routeless` serves
 * them without loading tsx while every file that went in is unchanged; an edited, added or removed file, `--watch`, or
 * another prefix serves the sources, as without a build. Run as users run it: the built bin in a child process, in a
 * project whose config imports routeless from its node_modules.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const MODULE_LOG = fileURLToPath(new URL('../_module-log.mjs', import.meta.url))
let dir: string

/** The files of the project as built; a test that edits one puts it back. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ type: 'module', private: true }),
  'routeless.config.ts': `import { defineConfig } from 'routeless'
import { store } from './lib/store.ts'

export default defineConfig({ prefix: 'api', context: () => ({ store }) })
`,
  'lib/store.ts': 'export const store: { hits: number } = { hits: 0 }\n',
  'api/_greeting.ts': "export const greeting = (name: string): string => 'Hello, ' + name + '!'\n",
  'api/greeting.txt': 'from a file beside the controller',
  'api/index.ts': `import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { greeting } from './_greeting.ts'
import { store } from '../lib/store.ts'

export class Default {
  GET({ name = 'world' }: { name?: string } = {}) {
    return { message: greeting(name) }
  }
}

export class Add {
  GET(a: number, b: number) {
    return { sum: a + b }
  }
}

export class Boom {
  GET() {
    throw new Error('boom')
  }
}

/** Whether node's fetch (undici) is loaded: an answer that needs no Fetch object should not load it. */
export class Undici {
  GET() {
    return { loaded: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.some((m) => m.includes('undici')) }
  }
}

/** What served this: tsx loaded or not, one store shared with the config, a file read beside this one. */
export class Served {
  GET() {
    const loaded = Object.keys(createRequire(import.meta.url).cache)
    const context = (this as unknown as { context: { store: unknown } }).context
    return {
      tsx: loaded.some((f) => f.includes(\`\${'/'}tsx\${'/'}\`)),
      sameStore: context.store === store,
      file: readFileSync(new URL('./greeting.txt', import.meta.url), 'utf8'),
    }
  }
}
`,
}

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function cli(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/** Serves with `args` (`routeless` alone, as `npm start`), answers `paths` as JSON, stops. */
async function served(
  args: string[],
  paths: string[],
  log: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<unknown[]> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, ROUTELESS_HOST: '127.0.0.1:0', ROUTELESS_LOG_LEVEL: 'warn', ...env },
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(out)
        if (m) resolve(m[1]!)
      })
      child.on('close', () => reject(new Error(`exited before listening: ${out}`)))
    })
    const answers: unknown[] = []
    for (const p of paths) answers.push(await (await fetch(url + p)).json())
    return answers
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.on('close', r)))
    log.push(out)
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-built-'))
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(
    fileURLToPath(new URL('../../packages/routeless', import.meta.url)),
    path.join(dir, 'node_modules/routeless'),
    'dir',
  )
  write(FILES)
  const built = await cli(['build'])
  expect(built.code, built.stderr).toBe(0)
  expect(built.stdout).toMatch(/compiled 4 files to \.routeless\/node\//)
}, 60_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const FROM_BUILD = { tsx: false, sameStore: true, file: 'from a file beside the controller' }
/** From the sources: through tsx, except where node strips types itself (≥ 22.18), which loads these natively. */
const FROM_SOURCES = { ...FROM_BUILD, tsx: !(process.features as { typescript?: unknown }).typescript }

describe('routeless build for node', { timeout: 60_000 }, () => {
  it('serves the compiled controllers and config without tsx, the same answers', async () => {
    expect(existsSync(path.join(dir, '.routeless/node/controllers.mjs'))).toBe(true)
    expect(await served([], ['/served', '/add/2/3', '/add/x/3', '/?name=you'])).toEqual([
      FROM_BUILD,
      { sum: 5 },
      expect.objectContaining({ status: 400, message: 'Invalid parameters: a: must be a number, got "x"' }),
      { message: 'Hello, you!' },
    ])
  })

  it("loads routeless from a few files, no package and not node's fetch: the bin, its entry, the CLI, request time", async () => {
    const log: string[] = []
    // At the default log level: the access log adds each answer's X-Request-ID, and makes no Fetch object for it; and
    // on node 22 and later node:http is required, not imported (an ES import's facade loads undici: shared/node-http.ts).
    const env = { NODE_OPTIONS: `--import=${MODULE_LOG}`, ROUTELESS_LOG_LEVEL: 'info' }
    expect(await served([], ['/add/2/3', '/undici'], log, env)).toEqual([{ sum: 5 }, { loaded: false }])
    const loaded = [...log[0]!.matchAll(/^module-log: (\S+)$/gm)].map((m) => m[1]!)
    const dist = loaded.filter((url) => url.includes('/packages/routeless/dist/'))
    expect(dist.map((url) => path.basename(url).replace(/-[\w-]{8}\.js$/, '-*.js')).sort()).toEqual([
      'bin.js',
      'cli-*.js',
      'index.js',
      'runtime-*.js',
    ])
    expect(loaded.filter((url) => url.includes('/node_modules/'))).toEqual([])
  })

  it('loads no CLI code for a library user: `routeless` is its entry and request time', async () => {
    const script =
      "const { defineConfig, createApp } = await import('routeless'); console.log(typeof defineConfig, typeof createApp)"
    const child = spawn(process.execPath, [`--import=${MODULE_LOG}`, '--input-type=module', '-e', script], { cwd: dir })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    await new Promise((resolve) => child.on('close', resolve))
    expect(out).toContain('function function')
    const dist = [...out.matchAll(/^module-log: (\S+)$/gm)].map((m) => m[1]!).filter((u) => u.includes('/dist/'))
    expect(dist.map((url) => path.basename(url).replace(/-[\w-]{8}\.js$/, '-*.js')).sort()).toEqual([
      'index.js',
      'runtime-*.js',
    ])
  })

  it("logs a handler's error with the stack of its own file, as from the sources", async () => {
    const log: string[] = []
    expect(await served([], ['/boom'], log)).toEqual([expect.objectContaining({ status: 500 })])
    // (The log line is JSON: the stack's line breaks are written \n.)
    expect(log[0]).toMatch(/Error: boom\\n\s+at Boom\.GET \([^)]*api\/index\.ts:\d+:\d+\)/)
  })

  it('serves an edit made after the build: a controller, a module it imports, the config', async () => {
    const edits: Record<string, string> = {
      'api/index.ts': FILES['api/index.ts']!.replace('sum: a + b', 'sum: a + b, edited: true'),
      'api/_greeting.ts': FILES['api/_greeting.ts']!.replace('Hello', 'Hi'),
      'routeless.config.ts': `${FILES['routeless.config.ts']}// edited\n`,
    }
    try {
      for (const [file, text] of Object.entries(edits)) {
        write({ [file]: text })
        const [served_, add, hello] = await served([], ['/served', '/add/2/3', '/?name=you'])
        expect(served_, file).toEqual(FROM_SOURCES)
        expect(add, file).toEqual(file === 'api/index.ts' ? { sum: 5, edited: true } : { sum: 5 })
        expect(hello, file).toEqual({ message: file === 'api/_greeting.ts' ? 'Hi, you!' : 'Hello, you!' })
        write({ [file]: FILES[file]! })
      }
    } finally {
      write(FILES)
    }
    expect((await served([], ['/served']))[0]).toEqual(FROM_BUILD)
  })

  it('serves the sources once a tsconfig.json is written after the build (it says how TypeScript compiles)', async () => {
    try {
      write({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' })
      expect(await served([], ['/served'])).toEqual([FROM_SOURCES])
    } finally {
      rmSync(path.join(dir, 'tsconfig.json'))
    }
  })

  it('serves a controller added after the build from the sources, and the build again once it is gone', async () => {
    try {
      write({ 'api/extra.ts': 'export class Default {\n  GET() {\n    return { extra: true }\n  }\n}\n' })
      expect(await served([], ['/served', '/extra'])).toEqual([FROM_SOURCES, { extra: true }])
    } finally {
      rmSync(path.join(dir, 'api/extra.ts'))
    }
    expect(await served([], ['/served'])).toEqual([FROM_BUILD])
  })

  it('compiles nothing where the .ts files load as CommonJS (no "type": "module"), and the sources serve', async () => {
    try {
      write({ 'package.json': JSON.stringify({ private: true }) })
      const built = await cli(['build'])
      expect(built.code, built.stderr).toBe(0)
      expect(built.stdout).toContain('not compiled for node (api/index.ts loads as CommonJS): node serves the sources')
      expect(existsSync(path.join(dir, '.routeless/node'))).toBe(false)
      expect((await served([], ['/add/2/3']))[0]).toEqual({ sum: 5 })
    } finally {
      write(FILES)
      expect((await cli(['build'])).code).toBe(0)
    }
  })

  it('stays on the sources with --watch and with another prefix', async () => {
    expect(await served(['--watch'], ['/served'])).toEqual([FROM_SOURCES])
    mkdirSync(path.join(dir, 'other'), { recursive: true })
    write({ 'other/index.ts': 'export class Default {\n  GET() {\n    return "other"\n  }\n}\n' })
    expect(await served(['--prefix=other'], [''])).toEqual(['other'])
  })
})
