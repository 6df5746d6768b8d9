/**
 * The signature manifest: a cold start type-checks and caches, a warm start reads the cache, an edit (to a controller
 * or a type it imports) makes it stale, `routeless build` writes it ahead of time, a server started with
 * `types: 'manifest'` never needs typescript, and a minified bundle binds by the manifest, not by parameter names.
 * Each app is checked served every way (in-process fetch, node, uWS).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { build as bundle } from 'esbuild'
import { createApp } from 'routeless'
import { runCli } from 'routeless/cli'
import { collectSources } from '../../packages/routeless/src/runtime/app/options.ts'
import { loadSignatures } from '../../packages/routeless/src/runtime/contract/type-source.ts'
import { buildTools } from '../../packages/routeless/src/runtime/app/build-tools.ts'
import { fixture } from '../_apps.ts'
import { onEveryTarget, type Target } from '../_targets.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A project in a fresh directory: the typed fixture as `controllers/` (without servers.ts, which imports routeless). */
function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-manifest-'))
  dirs.push(dir)
  cpSync(fixture('typed'), path.join(dir, 'controllers'), { recursive: true, filter: (f) => !f.endsWith('servers.ts') })
  return dir
}

/** `routeless build …` run in `dir`, as a user runs it there; its output (the exit code must be `code`). */
async function build(dir: string, args: string[] = [], code = 0): Promise<string> {
  const out: string[] = []
  const cwd = process.cwd()
  process.chdir(dir)
  try {
    expect(await runCli(['build', ...args], { stdout: (l) => out.push(l), stderr: (l) => out.push(l) })).toBe(code)
  } finally {
    process.chdir(cwd)
  }
  return out.join('\n')
}

const quiet = (warnings: string[] = []) => ({ error: () => {}, warn: (m: string) => void warnings.push(m) })
type App = Awaited<ReturnType<typeof createApp>>
/** The statuses `app` answers for `paths`, the same on every way of serving (in-process fetch, node, uWS). */
async function statuses(app: App, paths: Record<string, number>): Promise<void> {
  await onEveryTarget(app, async (t) => {
    for (const [p, expected] of Object.entries(paths))
      expect((await t.request(p)).status, `${t.name} ${p}`).toBe(expected)
  })
}
const json = async (t: Target, p: string) => (await t.request(p)).json()

describe('the signature manifest', () => {
  it('is written by a cold start, read by a warm one, and made stale by an edit to an imported type', async () => {
    const dir = project()
    const cold = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(cold.table.types).toBe('analysis')
    expect(existsSync(path.join(dir, '.routeless/manifest.json'))).toBe(true)
    await statuses(cold, { '/pages/0': 400, '/pages/1': 200 })

    const warm = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(warm.table.types).toBe('manifest')
    await statuses(warm, { '/pages/0': 400, '/pages/1': 200 })

    // Loosen the constraint in the imported types file: the manifest of index.ts is stale, and the new rule applies.
    const types = path.join(dir, 'controllers/_types.ts')
    writeFileSync(types, readFileSync(types, 'utf8').replace('@minimum 1', '@minimum 0'))
    const edited = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(edited.table.types).toBe('analysis')
    await statuses(edited, { '/pages/0': 200, '/pages/-1': 400 })
  })

  it('analyses again only the edited controller and the controllers whose imported types changed', async () => {
    const dir = project()
    writeFileSync(
      path.join(dir, 'controllers/other.ts'),
      'export class Default {\n  GET(n: number) {\n    return n\n  }\n}\n',
    )
    const analysed = async () => {
      const signatures = await loadSignatures(collectSources('controllers', dir), {
        cwd: dir,
        analysis: buildTools.analysis,
      })
      return signatures.analysed.sort()
    }
    expect(await analysed()).toEqual(['controllers/index.ts', 'controllers/other.ts', 'controllers/scripted.js'])
    expect(await analysed()).toEqual([])
    const other = path.join(dir, 'controllers/other.ts')
    writeFileSync(other, readFileSync(other, 'utf8').replace('n: number', 'n: boolean'))
    expect(await analysed()).toEqual(['controllers/other.ts'])
    const manifest = JSON.parse(readFileSync(path.join(dir, '.routeless/manifest.json'), 'utf8'))
    expect(manifest.handlers['controllers/other.ts#Default.GET'].positional[0].schema).toEqual({ type: 'boolean' })
    expect(manifest.handlers['controllers/index.ts#Add.GET'].positional[0].schema).toEqual({ type: 'number' })
    const app = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(app.table.types).toBe('manifest')
    await statuses(app, { '/other/true': 200, '/other/maybe': 400, '/add/1/2': 200, '/add/1/x': 400 })
    // A type file: the controllers that import it (index.ts), not the others.
    const types = path.join(dir, 'controllers/_types.ts')
    writeFileSync(types, readFileSync(types, 'utf8').replace('@minimum 1', '@minimum 2'))
    expect(await analysed()).toEqual(['controllers/index.ts'])
    // The tsconfig and the TypeScript version are part of the cache's key: a new tsconfig analyses everything.
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, lib: ['es2023'] } }),
    )
    expect(await analysed()).toEqual(['controllers/index.ts', 'controllers/other.ts', 'controllers/scripted.js'])
    expect(await analysed()).toEqual([])
  })

  it('makes at start-up the validators of the tree it serves only, where the manifest describes another tree too', async () => {
    const dir = project()
    mkdirSync(path.join(dir, 'admin'))
    writeFileSync(
      path.join(dir, 'admin/index.ts'),
      'export class Default {\n  GET(flag: boolean): { admin: boolean } {\n    return { admin: flag }\n  }\n}\n',
    )
    const admin = await createApp('admin', { cwd: dir, logger: quiet() })
    const app = await createApp('controllers', { cwd: dir, logger: quiet() })
    const manifest = JSON.parse(readFileSync(path.join(dir, '.routeless/manifest.json'), 'utf8'))
    expect(Object.keys(manifest.handlers)).toContain('admin/index.ts#Default.GET')
    expect(app.table.validators).toBe('evaluated')
    const returns = (a: App) => Object.keys(a.table.serializers ?? {})
    expect(returns(app).some((key) => key.includes('"admin"'))).toBe(false)
    expect(returns(app).length).toBeGreaterThan(0)
    await statuses(app, { '/pages/0': 400, '/pages/1': 200, '/add/1/x': 400 })
    // Started again, the other tree finds its own in the same manifest.
    const again = await createApp('admin', { cwd: dir, logger: quiet() })
    expect(returns(again).filter((key) => key.includes('"admin"'))).toHaveLength(1)
    expect(returns(again).some((key) => returns(app).includes(key))).toBe(false)
    for (const a of [admin, again])
      await onEveryTarget(a, async (t) => {
        expect(await json(t, '/true')).toEqual({ admin: true })
        expect((await t.request('/maybe')).status).toBe(400)
      })
  })

  it('makes the validators of a JavaScript file without JSDoc that `routeless build` typed, after another file is edited', async () => {
    const dir = project()
    writeFileSync(
      path.join(dir, 'controllers/plain.js'),
      'export class Default {\n  POST(page = 1, { shelf = { row: 2 } } = {}) {\n    return [page, shelf.row]\n  }\n}\n',
    )
    await build(dir)
    const manifest = JSON.parse(readFileSync(path.join(dir, '.routeless/manifest.json'), 'utf8'))
    expect(manifest.handlers['controllers/plain.js#Default.POST'].positional[0].schema).toEqual({ type: 'number' })
    // The edit makes the built module stale: the validators are made at start-up, for the files served.
    const index = path.join(dir, 'controllers/index.ts')
    writeFileSync(index, `${readFileSync(index, 'utf8')}\n// edited\n`)
    const app = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(app.table.validators).toBe('evaluated')
    await onEveryTarget(app, async (t) => {
      const post = (body: unknown) =>
        t.request('/plain/2', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
      expect(await (await post({ shelf: { row: 3 } })).json()).toEqual([2, 3])
      expect((await post({ shelf: { row: 'x' } })).status).toBe(400)
    })
  })

  it('is written by `routeless build` and serves with types: manifest (no typescript needed)', async () => {
    const dir = project()
    const out = await build(dir)
    expect(out).toMatch(/wrote \.routeless\/manifest\.json and \.routeless\/app\.mjs: \d+ handlers from 2 files/)
    const app = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet() })
    expect(app.table.types).toBe('manifest')
    await statuses(app, { '/add/1/x': 400, '/kwonly': 400, '/kwonly?che=1&x=2': 400 })
    await onEveryTarget(app, async (t) => expect(await json(t, '/add/1/2'), t.name).toBe(3))
  })

  it('fails `routeless build --strict` on a parameter no schema can check, and writes nothing', async () => {
    const dir = project()
    writeFileSync(
      path.join(dir, 'controllers/maps.ts'),
      'export class Default {\n  GET(lookup: Map<string, number>) {\n    return lookup.size\n  }\n}\n',
    )
    const strict = await build(dir, ['--strict'], 1)
    expect(strict).toMatch(/error: controllers\/maps\.ts: Default\.GET: keyword parameter: a Map cannot be checked/)
    expect(strict).toMatch(/build --strict: 1 parameter cannot be checked; \.routeless\/manifest\.json not written/)
    expect(existsSync(path.join(dir, '.routeless/manifest.json'))).toBe(false)
    expect(await build(dir)).toMatch(
      /warning: controllers\/maps\.ts: Default\.GET: keyword parameter: a Map cannot be checked[\s\S]*wrote \.routeless\/manifest\.json/,
    )
  })

  it('falls back to binding by name, with one warning, when there is neither typescript nor a manifest', async () => {
    const dir = project()
    const warnings: string[] = []
    const app = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet(warnings) })
    expect(app.table.types).toBe('none')
    expect(warnings.filter((w) => /signature manifest does not describe/.test(w))).toHaveLength(1)
    // untyped: strings, as before types were read
    await onEveryTarget(app, async (t) => expect(await json(t, '/add/1/2'), t.name).toBe('12'))
  })

  it("checks File parameters in a project without a tsconfig (ES2022 library plus routeless's Blob and File)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-nolib-'))
    dirs.push(dir)
    cpSync(fixture('typed'), path.join(dir, 'controllers'), {
      recursive: true,
      filter: (f) => !f.endsWith('servers.ts'),
    })
    writeFileSync(
      path.join(dir, 'controllers/uploads.ts'),
      `
export class Default {
  async PUT({ file, note }: { file: File; note?: string }) {
    return { name: file.name, text: await file.text(), note: note ?? null }
  }
}
`,
    )
    const app = await createApp('controllers', { cwd: dir, logger: quiet() })
    expect(app.table.types).toBe('analysis')
    await onEveryTarget(app, async (t) => {
      const upload = new FormData()
      upload.set('file', new File(['hi'], 'a.txt'))
      expect(await (await t.request('/uploads', { method: 'PUT', body: upload })).json(), t.name).toEqual({
        name: 'a.txt',
        text: 'hi',
        note: null,
      })
      const text = await t.request('/uploads', {
        method: 'PUT',
        body: 'file=hi',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(text.status, t.name).toBe(400)
    })
    await statuses(app, { '/add/1/x': 400 })
  })

  it('reads the data a handler returns, through promises and thenables only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-returns-'))
    dirs.push(dir)
    mkdirSync(path.join(dir, 'controllers'))
    writeFileSync(
      path.join(dir, 'controllers/index.ts'),
      `
interface Item { id: number }
interface Then { then: string }
export class Default {
  GET_array(): Item[] { return [] }
  GET_promise(): Promise<Item> { return Promise.resolve({ id: 1 }) }
  GET_either(): Promise<Item> | Item { return { id: 1 } }
  GET_like(): PromiseLike<Item[]> { return Promise.resolve([]) }
  GET_then(): Then { return { then: 'x' } }
  GET_nothing(): Promise<void> { return Promise.resolve() }
}
`,
    )
    await createApp('controllers', { cwd: dir, logger: quiet() })
    const { handlers } = JSON.parse(readFileSync(path.join(dir, '.routeless/manifest.json'), 'utf8'))
    const returns = (m: string) => handlers[`controllers/index.ts#Default.GET_${m}`].returns
    const item = { $ref: '#/$defs/Item' }
    expect(returns('array')).toEqual({ type: 'array', items: item })
    expect(returns('promise')).toEqual(item)
    expect(returns('either')).toEqual(item)
    expect(returns('like')).toEqual({ type: 'array', items: item })
    expect(returns('then')).toEqual({ $ref: '#/$defs/Then' })
    expect(returns('nothing')).toBeNull()
  })

  it('refuses a JSDoc constraint with a bad value at start-up', async () => {
    const dir = project()
    writeFileSync(
      path.join(dir, 'controllers/bad.ts'),
      'export class Default {\n  GET({ n }: {\n    /** @minimum many */\n    n: number\n  }) {\n    return n\n  }\n}\n',
    )
    await expect(createApp('controllers', { cwd: dir, logger: quiet() })).rejects.toMatchObject({
      code: 'ROUTELESS_ERR_TYPES',
      message: expect.stringMatching(/@minimum .* needs a number, got "many"/),
    })
    for (const [tag, says] of [
      ['{"maxItem": "x"}', /"maxItem" is not a keyword/],
      ['{"maxItems": 3}', /the message for "maxItems" must be a text/],
      ['{maxItems}', /starts with \{ but is not JSON/],
    ] as const) {
      writeFileSync(
        path.join(dir, 'controllers/bad.ts'),
        `export class Default {\n  GET({ n }: {\n    /** @errorMessage ${tag} */\n    n: number[]\n  }) {\n    return n\n  }\n}\n`,
      )
      await expect(createApp('controllers', { cwd: dir, logger: quiet() }), tag).rejects.toMatchObject({
        code: 'ROUTELESS_ERR_TYPES',
        message: expect.stringMatching(says),
      })
    }
  })

  it('reports a module that fails to load ahead of a mistake in its types (the types are read first)', async () => {
    const dir = project()
    writeFileSync(
      path.join(dir, 'controllers/bad.ts'),
      'throw new Error("top-level failure")\nexport class Default {\n  GET({ n }: {\n    /** @minimum many */\n' +
        '    n: number\n  }) {\n    return n\n  }\n}\n',
    )
    await expect(createApp('controllers', { cwd: dir, logger: quiet() })).rejects.toMatchObject({
      code: 'ROUTELESS_ERR_MODULE_LOAD',
      message: expect.stringMatching(/bad\.ts failed to load: top-level failure/),
    })
  })

  it('binds a minified bundle (its parameter names mangled) by the manifest', async () => {
    const dir = project()
    await build(dir)
    // One ESM bundle of the root module, minified: `kwargs` and `{ che }` no longer exist as names.
    const bundled = await bundle({
      entryPoints: [path.join(dir, 'controllers/index.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      platform: 'node',
      keepNames: true,
    })
    const file = path.join(dir, 'bundle.mjs')
    writeFileSync(file, bundled.outputFiles[0]!.text)
    const exports = await import(file)
    // Read from its text alone, `Items.GET(e)` would take a required path part and never see the keywords.
    expect(String(exports.Items.prototype.GET)).toMatch(/^GET\((?!kwargs)\w+\)/)
    const byName = await createApp({ modules: { '': exports } }, { types: 'off', logger: quiet() })
    await statuses(byName, { '/items?ids=1,2': 404 })
    const app = await createApp(
      { modules: { '': exports } },
      { cwd: dir, manifest: '.routeless/manifest.json', types: 'manifest', logger: quiet() },
    )
    await statuses(app, { '/kwonly': 400, '/items?ids=1,x': 400 })
    await onEveryTarget(app, async (t) => {
      expect(await json(t, '/kwonly?che=1'), t.name).toEqual({ che: '1' })
      expect(await json(t, '/items?ids=1,2'), t.name).toEqual({ ids: [1, 2] })
      expect(await json(t, '/opt'), t.name).toEqual({ id: null })
    })
  })

  it('refuses a hand-edited manifest whose schema is malformed, naming the keyword', async () => {
    const dir = project()
    await build(dir)
    const file = path.join(dir, '.routeless/manifest.json')
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    manifest.handlers['controllers/index.ts#Add.GET'].positional[0].schema = { type: 5 }
    writeFileSync(file, JSON.stringify(manifest))
    rmSync(path.join(dir, '.routeless/app.mjs'))
    const error = await createApp('controllers', { cwd: dir, types: 'manifest', logger: quiet() }).then(
      () => undefined,
      (e: Error) => e,
    )
    expect(error?.message).toMatch(/\btype must be/)
  })
})
