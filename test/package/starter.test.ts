/**
 * `npm create routeless@latest` as a user meets it, from the packed tarballs (test/package/_starter.ts): each
 * runtime's project is written into a temporary folder, installs the packed routeless, passes its own test with the
 * runtime's test runner, builds, and answers over HTTP when served the way its README says; and the mistakes a user
 * can make get a clear message and exit code.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeOn } from '../_matrix.ts'
import { PACKAGE, run } from './_project.ts'
import {
  answers,
  create,
  EXPECTED_ANSWERS,
  install,
  packBoth,
  serve,
  STARTER,
  serveWorker,
  withRuntimes,
  type Packs,
} from './_starter.ts'

let packs: Packs

beforeAll(async () => {
  packs = await packBoth()
}, 300_000)

afterAll(() => packs?.remove())

/** Writes the `runtime` project into `<packs>/app-<runtime>` and installs it. */
async function project(runtime: string, omit: string[] = []): Promise<string> {
  const made = await create(packs, [`app-${runtime}`, `--runtime=${runtime}`])
  expect(made.code, made.stderr).toBe(0)
  const dir = path.join(packs.dir, `app-${runtime}`)
  await install(packs, dir, omit)
  return dir
}

describe('create-routeless, its mistakes', { timeout: 120_000 }, () => {
  it('refuses an unknown runtime, an invalid name and a non-empty directory, writing nothing', async () => {
    const unknown = await create(packs, ['app-x', '--runtime=rust'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown runtime "rust": expected one of node, bun, deno, workers')
    const invalid = await create(packs, ['My App', '--runtime=node'])
    expect(invalid.code).toBe(2)
    expect(invalid.stderr).toContain('Invalid project name "My App"')
    mkdirSync(path.join(packs.dir, 'taken'))
    writeFileSync(path.join(packs.dir, 'taken', 'notes.txt'), 'mine')
    const taken = await create(packs, ['taken', '--runtime=node'])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('taken is not empty (notes.txt)')
    const noTerminal = await create(packs, ['app-y'])
    expect(noTerminal.code).toBe(2)
    expect(noTerminal.stderr).toContain('no terminal to ask in')
    for (const dir of ['app-x', 'My App', 'app-y']) expect(existsSync(path.join(packs.dir, dir))).toBe(false)
    expect(readFileSync(path.join(packs.dir, 'taken', 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('takes the defaults with --yes: routeless-app, on node', async () => {
    const made = await create(packs, ['--yes'])
    expect(made.code, made.stderr).toBe(0)
    const pkg = JSON.parse(readFileSync(path.join(packs.dir, 'routeless-app', 'package.json'), 'utf8'))
    expect(pkg.name).toBe('routeless-app')
    expect(pkg.scripts.dev).toBe('routeless --watch')
    // The Node.js versions the project declares are routeless's and create-routeless's own (docs/runtimes.md, "Node.js versions").
    const engines = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).engines
    expect(pkg.engines).toEqual(engines(PACKAGE))
    expect(engines(STARTER)).toEqual(engines(PACKAGE))
  })
})

describe('the node project', { timeout: 180_000 }, () => {
  let dir: string
  beforeAll(async () => {
    dir = await project('node')
  }, 300_000)

  it('passes its own test (node:test through tsx)', async () => {
    const tested = await run('npm', ['test'], { cwd: dir, timeout: 120_000 })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/[#ℹ] pass 3\n[#ℹ] fail 0/) // TAP (node 20) or the spec reporter (node ≥ 23)
  })

  it('builds (tsc, the signature manifest, the controllers and config compiled for node) and serves on the routeless CLI', async () => {
    const built = await run('npm', ['run', 'build'], { cwd: dir, timeout: 120_000 })
    expect(built.code, built.stdout + built.stderr).toBe(0)
    expect(existsSync(path.join(dir, '.routeless/manifest.json'))).toBe(true)
    expect(built.stdout).toMatch(/compiled 2 files to \.routeless\/node\//)
    const s = serve('npm', ['start', '--', '--host=127.0.0.1:0', '--log-level=warn'], dir)
    try {
      const url = await s.url
      expect(s.output()).toMatch(/2 handlers from controllers listening on .* \(node\)/)
      expect(await answers(url)).toEqual(EXPECTED_ANSWERS)
      await s.stop()
    } finally {
      s.kill()
    }
  })

  it('serves a controller edited after the build as edited (from its sources), then from the rebuilt build', async () => {
    const file = path.join(dir, 'controllers/index.ts')
    const original = readFileSync(file, 'utf8')
    const servedOnce = async () => {
      const s = serve('npm', ['start', '--', '--host=127.0.0.1:0', '--log-level=warn'], dir)
      try {
        const got = await answers(await s.url)
        await s.stop()
        return got
      } finally {
        s.kill()
      }
    }
    try {
      writeFileSync(file, original.replace('Hello,', 'Hi,'))
      const edited = await servedOnce()
      expect(edited).toEqual([[200, { message: 'Hi, you!' }], ...EXPECTED_ANSWERS.slice(1)])
      const rebuilt = await run('npm', ['run', 'build'], { cwd: dir, timeout: 120_000 })
      expect(rebuilt.code, rebuilt.stdout + rebuilt.stderr).toBe(0)
      expect(readFileSync(path.join(dir, '.routeless/node/controllers.mjs'), 'utf8')).toContain('Hi, ')
      expect(await servedOnce()).toEqual(edited)
    } finally {
      writeFileSync(file, original)
    }
  })
})

describeOn('bun', 'the Bun project', { timeout: 180_000 }, () => {
  let dir: string
  beforeAll(async () => {
    dir = await project('bun')
  }, 300_000)

  it('passes its own test (bun test)', async () => {
    const tested = await run('bun', ['test'], { cwd: dir, env: withRuntimes(), timeout: 120_000 })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stderr).toMatch(/ 3 pass\n 0 fail/)
  })

  it('builds and serves on Bun.serve through the routeless CLI (bun run start)', async () => {
    const built = await run('bun', ['run', 'build'], { cwd: dir, env: withRuntimes(), timeout: 120_000 })
    expect(built.code, built.stdout + built.stderr).toBe(0)
    const s = serve('bun', ['run', 'start', '--host=127.0.0.1:0', '--log-level=warn'], dir)
    try {
      const url = await s.url
      expect(s.output()).toMatch(/2 handlers from controllers listening on .* \(bun\)/)
      expect(await answers(url)).toEqual(EXPECTED_ANSWERS)
      await s.stop()
    } finally {
      s.kill()
    }
  })
})

describeOn('deno', 'the Deno project', { timeout: 180_000 }, () => {
  let dir: string
  beforeAll(async () => {
    dir = await project('deno')
  }, 300_000)

  it('passes its own test (deno task test)', async () => {
    const tested = await run('deno', ['task', 'test'], { cwd: dir, env: withRuntimes(), timeout: 120_000 })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/ok \| 3 passed \| 0 failed/)
  })

  it('type-checks and writes its manifest (deno task build), and serves on Deno.serve (deno task start)', async () => {
    const built = await run('deno', ['task', 'build'], { cwd: dir, env: withRuntimes(), timeout: 120_000 })
    expect(built.code, built.stdout + built.stderr).toBe(0)
    expect(existsSync(path.join(dir, '.routeless/manifest.json'))).toBe(true)
    const s = serve('deno', ['task', 'start'], dir, { PORT: '0' })
    try {
      expect(await answers(await s.url)).toEqual(EXPECTED_ANSWERS)
      await s.stop()
    } finally {
      s.kill()
    }
  })
})

describeOn('workerd', 'the Workers project', { timeout: 180_000 }, () => {
  let dir: string
  beforeAll(async () => {
    // wrangler (60 MB with its own workerd) is not installed: the test serves the build with workerd, as wrangler does.
    dir = await project('workers', ['wrangler'])
  }, 300_000)

  it('passes its own test (node:test through tsx)', async () => {
    const tested = await run('npm', ['test'], { cwd: dir, timeout: 120_000 })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/[#ℹ] pass 3\n[#ℹ] fail 0/) // TAP (node 20) or the spec reporter (node ≥ 23)
  })

  it('builds the Worker (routeless build --target=worker) and serves it on workerd, per its wrangler.toml', async () => {
    const built = await run('npm', ['run', 'build'], { cwd: dir, timeout: 180_000 })
    expect(built.code, built.stdout + built.stderr).toBe(0)
    expect(built.stdout).toMatch(/wrote dist\/worker\.js: 2 handlers/)
    // Self-contained: nothing left to import, no node: built-in either, and at most 100 KiB unminified (issue 32).
    const bundle = readFileSync(path.join(dir, 'dist/worker.js'), 'utf8')
    expect([...bundle.matchAll(/^import .* from "([^"]+)"/gm)].map((m) => m[1])).toEqual([])
    expect(bundle).not.toMatch(/\bimport\(\s*["'`]|\brequire\(\s*["']node:/)
    expect(Buffer.byteLength(bundle) / 1024).toBeLessThanOrEqual(100)
    const s = serveWorker(dir)
    try {
      expect(await answers(await s.url)).toEqual(EXPECTED_ANSWERS)
    } finally {
      s.kill()
    }
  })
})
