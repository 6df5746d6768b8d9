/**
 * The contract compiled (issue 32): `routeless build` writes `.routeless/app.mjs` beside the manifest, with every
 * handler type's validator and every return type's serializer as code; start-up uses it when it was generated from
 * this manifest by this version, and otherwise generates the same source in memory. Both answer alike, the 400s
 * worded as Ajv words them; the ahead-of-time path runs where code generation from strings is refused.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { Application, buildRouteTable, createApp } from 'routeless'
import { runCli } from 'routeless/cli'
import { collectSources } from '../../packages/routeless/src/runtime/app/options.ts'
import { explain } from '../../packages/routeless/src/compiler/tooling/explain.ts'
import { fixture } from '../_apps.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The typed fixture as `controllers/` of a fresh project, built with `routeless build`. */
async function built(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-compiled-'))
  dirs.push(dir)
  cpSync(fixture('typed'), path.join(dir, 'controllers'), { recursive: true, filter: (f) => !f.endsWith('servers.ts') })
  const cwd = process.cwd()
  const out: string[] = []
  process.chdir(dir)
  try {
    expect(await runCli(['build'], { stdout: (l) => out.push(l), stderr: (l) => out.push(l) })).toBe(0)
  } finally {
    process.chdir(cwd)
  }
  expect(out.join('\n')).toMatch(/wrote \.routeless\/manifest\.json and \.routeless\/app\.mjs: \d+ handlers/)
  return dir
}

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const quiet = { error: () => {}, warn: () => {} }

/** Requests whose answers must not depend on where the validators came from: valid, invalid, edge values. */
const REQUESTS: [string, RequestInit?][] = [
  ['/add/1/2'],
  ['/add/1/x'],
  ['/add/1.5/1e3'],
  ['/pages/0'],
  ['/pages/2?size=x'],
  ['/flags/yes/red'],
  ['/flags/maybe/purple'],
  ['/items?sort=port&ids=1,2&active=on&since=2024-02-29T10:00:00Z&email=a@b.co&code=abc'],
  ['/items?since=2023-02-29T10:00:00Z'],
  ['/items?email=nope&code=ABC'],
  ['/items?unknown=1'],
  ['/rest/1/2/x'],
  ['/kwonly'],
  [
    '/users',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":{"name":"","age":-1},"tags":[]}',
    },
  ],
  [
    '/users',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":{"name":"ann","age":3,"referrer":{"name":"bo","age":4}},"tags":["x"]}',
    },
  ],
  [
    '/meetings',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"meeting":{"at":"2024-01-31T09:05:00Z","reminders":["2024-01-30T09:05:00Z"]},"until":null}',
    },
  ],
  [
    '/meetings',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"meeting":{"at":"yesterday"}}' },
  ],
]

async function answers(app: Awaited<ReturnType<typeof createApp>>): Promise<string[]> {
  const out: string[] = []
  for (const [p, init] of REQUESTS) {
    const res = await app.request(p, init)
    out.push(`${p} ${res.status} ${await res.text()}`)
  }
  return out
}

describe('the generated module (.routeless/app.mjs)', () => {
  it('is used when fresh, and answers as the same source evaluated in memory and as Ajv at start-up', async () => {
    const dir = await built()
    const aot = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet })
    expect(aot.table.validators).toBe('generated')
    const file = path.join(dir, '.routeless/app.mjs')
    const text = readFileSync(file, 'utf8')
    expect(text).toMatch(/^\/\/ routeless build: /)
    expect(text).not.toMatch(/\brequire\(|\bimport\b/)
    // Each handler's function is in it (`routeless build` imported the tree), and start-up took it from there.
    expect(text).toContain('return function run(call) {')
    expect(new Set([...aot.table.handlers()].map((h) => aot.pipelineOf(h)!.origin))).toEqual(new Set(['generated']))
    // The module of another manifest is stale: the same source is generated at start-up instead.
    writeFileSync(file, text.replace(/export const manifest = "[^"]+"/, 'export const manifest = "fnv1a:0"'))
    const evaluated = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet })
    expect(evaluated.table.validators).toBe('evaluated')
    const expected = await answers(aot)
    expect(expected.filter((a) => / 400 /.test(a)).length).toBeGreaterThan(8)
    expect(await answers(evaluated)).toEqual(expected)
    // Ajv compiling at start-up (a route table built without the app's loader) answers alike too.
    const table = await buildRouteTable(collectSources('controllers', dir), { cwd: dir, types: 'manifest' })
    expect(table.validators).toBe('ajv')
    expect(await answers(new Application(table, { logger: quiet }))).toEqual(expected)
  })

  it('is named by routeless explain: generated, evaluated, or static params not compiled', async () => {
    const dir = await built()
    const app = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet })
    expect(explain(app.table, 'GET', '/add/1/2').lines).toContain(
      '  binding        the TypeScript types; validators generated ahead of time (.routeless/app.mjs)',
    )
    const schemas = await createApp(fixture('schemas'), { logger: quiet })
    expect(explain(schemas.table, 'GET', '/items').lines.join('\n')).toMatch(
      /binding {8}static params \(Standard Schema or hand schemas\): .*not compiled/,
    )
  })

  it('words the 400s as Ajv does, unchanged', async () => {
    const dir = await built()
    const app = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet })
    const body = async (p: string) => (await (await app.request(p)).json()) as { message: string }
    expect((await body('/add/1/x')).message).toBe('Invalid parameters: b: must be a number, got "x"')
    expect((await body('/items?email=nope')).message).toBe(
      'Invalid parameters: email: must match format "email", got "nope"',
    )
    expect((await body('/items?since=2023-02-29T10:00:00Z')).message).toBe(
      'Invalid parameters: since: must be an ISO 8601 date, got "2023-02-29T10:00:00Z"',
    )
  })

  it('serves where code generation from strings is refused (no Ajv, no new Function)', async () => {
    const dir = await built()
    const entry = path.join(dir, 'serve.mjs')
    const core = path.resolve(fileURLToPath(new URL('../../packages/routeless/src/index.ts', import.meta.url)))
    writeFileSync(
      entry,
      `import { createRequire } from 'node:module'
import { createApp } from ${JSON.stringify(core)}
const app = await createApp('controllers', { types: 'manifest' })
const ajv = Object.keys(createRequire(import.meta.url).cache).filter((f) => /node_modules.ajv/.test(f))
const out = [app.table.validators, ajv.length]
for (const p of ['/add/1/2', '/add/1/x', '/items?since=2024-02-29T10:00:00Z&email=a@b.co', '/pages/0'])
  out.push((await app.request(p)).status + ' ' + (await (await app.request(p)).text()))
console.log(JSON.stringify(out))
`,
    )
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', TSX, entry],
      { cwd: dir },
    )
    const [origin, ajv, sum, bad, items, page] = JSON.parse(stdout) as string[]
    expect(origin).toBe('generated')
    expect(ajv).toBe(0) // no file of Ajv (nor ajv-formats) was loaded
    expect(sum).toBe('200 3')
    expect(bad).toMatch(/^400 .*b: must be a number, got \\"x\\"/)
    expect(items).toMatch(/^200 .*"since":"Date 2024-02-29T10:00:00.000Z"/)
    expect(page).toMatch(/^400 .*page: must be >= 1/)
  })

  it('loads no file of the build half when started from a fresh build (the default types and types: manifest)', async () => {
    const dir = await built()
    const src = path.resolve(fileURLToPath(new URL('../../packages/routeless/src/', import.meta.url)))
    const log = path.join(dir, 'loaded.txt')
    // Every module of the core that resolves, written down by a resolve hook (hooks run off the main thread).
    writeFileSync(
      path.join(dir, 'record.mjs'),
      `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context)
  if (found.url.startsWith(${JSON.stringify(pathToFileURL(src).href)})) appendFileSync(${JSON.stringify(log)}, found.url + '\\n')
  return found
}
`,
    )
    writeFileSync(
      path.join(dir, 'hook.mjs'),
      "import { register } from 'node:module'\nregister('./record.mjs', import.meta.url)\n",
    )
    const core = path.join(src, 'index.ts')
    const loadedBy = async (options: string) => {
      writeFileSync(
        path.join(dir, 'serve.mjs'),
        `import { createApp } from ${JSON.stringify(core)}
const app = await createApp('controllers', ${options})
for (const p of ['/add/1/2', '/add/1/x', '/items?since=2024-02-29T10:00:00Z']) await (await app.request(p)).text()
console.log(app.table.validators)
`,
      )
      rmSync(log, { force: true })
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', TSX, '--import', './hook.mjs', 'serve.mjs'],
        { cwd: dir },
      )
      expect(stdout.trim()).toBe('generated')
      const files = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((url) => path.relative(src, fileURLToPath(url)))
      expect(files).toContain('runtime/handlers/load.ts') // the hook saw the core load
      return [...new Set(files)].filter((file) => /^compiler\//.test(file))
    }
    expect(await loadedBy('{}')).toEqual([])
    expect(await loadedBy("{ types: 'manifest' }")).toEqual([])
    // Where the build lacks a handler's code (checkReturns checks every answer), the seam loads the generator.
    expect(await loadedBy('{ checkReturns: true }')).toEqual(
      expect.arrayContaining(['compiler/codegen/handler-source.ts']),
    )
  })
})
