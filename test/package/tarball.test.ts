/**
 * routeless as an npm user gets it: the packed tarball installed into a fresh project outside the repository (with
 * typescript and vitest beside it), then its CLI (node's compile cache included), its library use from ESM and
 * CommonJS, vitest with `app.request()`, and its types under `tsc --strict` with node16, bundler and node10 resolution,
 * and without DOM's library.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blocksOf, fences } from '../_docs-code.ts'
import { installProject, REPO, run, start, write, type Project } from './_project.ts'

let project: Project
let dir: string
const node = process.execPath
const servers: ReturnType<typeof start>[] = []

const CONTROLLERS = {
  'controllers/index.ts': `export class Default {
  GET() {
    return 'Default handler'
  }
}
`,
  // A .ts controller that imports a private module (its own .ts) and declares typed parameters.
  'controllers/api/v1/items.ts': `import { HttpError } from 'routeless'
import { findItem, type Item } from '../../_lib/items.ts'

export class Default {
  GET(id: number, { fields }: { fields?: 'name' } = {}): Item | Pick<Item, 'name'> {
    const item = findItem(id)
    if (!item) throw new HttpError(404, \`No item \${id}\`)
    return fields === 'name' ? { name: item.name } : item
  }
}
`,
  'controllers/_lib/items.ts': `export interface Item { id: number; name: string }
const items: Item[] = [{ id: 7, name: 'seven' }]
export function findItem(id: number): Item | undefined {
  return items.find((i) => i.id === id)
}
`,
}

beforeAll(async () => {
  project = await installProject({ type: 'module' }, ['typescript@5.9.3', '@types/node@20.19.25', 'vitest@4.1.12'])
  dir = project.dir
  write(dir, CONTROLLERS)
}, 300_000)

afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL')
  project?.remove()
})

describe('the packed tarball', { timeout: 120_000 }, () => {
  it('holds README, LICENSE, and a package.json with repository, main/types fallbacks and a valid bin', async () => {
    const pkgDir = path.join(dir, 'node_modules/routeless')
    expect(readFileSync(path.join(pkgDir, 'README.md'), 'utf8')).toContain('npm i routeless')
    expect(readFileSync(path.join(pkgDir, 'LICENSE'), 'utf8')).toContain('MIT License')
    const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'))
    expect(pkg.repository.url).toMatch(/^git\+https:/)
    expect(pkg.main).toBe('./dist/index.js')
    expect(pkg.types).toBe('./dist/index.d.ts')
    expect(pkg.bin).toEqual({ routeless: 'bin/routeless.js' })
    expect(pkg.dependencies).toHaveProperty('@whatwg-node/server') // routeless/fetch
    expect(pkg.peerDependenciesMeta['uWebSockets.js']).toEqual({ optional: true })
    // npm publish normalizes package.json and says so: nothing must be corrected (a "./bin" path was "invalid and removed").
    const publish = await run('npm', ['publish', '--dry-run', project.tarball], { cwd: dir })
    expect(publish.stderr).toContain('routeless@0.1.0')
    expect(publish.stderr).not.toMatch(/auto-corrected|invalid and removed/)
  })

  it('holds Ajv as one module of its own (no import of the package at run time), with the licences of what it bundles', () => {
    const dist = path.join(dir, 'node_modules/routeless/dist')
    const chunks = readdirSync(dist).filter((f) => f.endsWith('.js'))
    const importsAjv = chunks.filter((f) =>
      // (Ajv's own code holds `require("ajv/dist/runtime/…")` in strings: the code it writes, relinked by routeless.)
      /^import[^;]*from\s*["']ajv|\bimport\(\s*["']ajv/m.test(readFileSync(path.join(dist, f), 'utf8')),
    )
    expect(importsAjv).toEqual([])
    expect(chunks.filter((f) => readFileSync(path.join(dist, f), 'utf8').includes('Ajv2020 = class'))).toHaveLength(1)
    const licences = readFileSync(path.join(dist, 'THIRD-PARTY-LICENSES.txt'), 'utf8')
    for (const name of ['ajv', 'ajv-formats', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse'])
      expect(licences).toMatch(new RegExp(`^${name}@\\d+\\.\\d+\\.\\d+ \\(`, 'm'))
  })
})

describe('the CLI of the installed package', { timeout: 120_000 }, () => {
  it('serves .ts controllers (and the private modules they import) with their types enforced', async () => {
    const s = start(project.bin, ['--host=127.0.0.1:0', '--log-level=warn'], { cwd: dir })
    servers.push(s)
    const url = await s.listening
    expect(s.out.stdout).toMatch(
      /routeless: 2 handlers from controllers listening on http:\/\/127\.0\.0\.1:\d+ \(node\)/,
    )
    expect(await (await fetch(`${url}/`)).json()).toBe('Default handler')
    expect(await (await fetch(`${url}/api/v1/items/7`)).json()).toEqual({ id: 7, name: 'seven' })
    expect(await (await fetch(`${url}/api/v1/items/7?fields=name`)).json()).toEqual({ name: 'seven' })
    // The signature is read with the project's own typescript: a path part that is not a number is a 400.
    expect((await fetch(`${url}/api/v1/items/seven`)).status).toBe(400)
    expect((await fetch(`${url}/api/v1/items/8`)).status).toBe(404)
    s.child.kill('SIGTERM')
    expect((await s.done).code).toBe(0)
  })

  it("serves with the project's routeless.config.ts (context, cors), --host winning over the file", async () => {
    write(dir, {
      'configured/routeless.config.ts': `import { defineConfig } from 'routeless'
export default defineConfig({
  prefix: '../controllers',
  host: '127.0.0.1:1',
  logLevel: 'silent',
  cors: { origins: ['https://app.example'] },
  context: async () => ({ greeting: 'hi' }),
})
`,
    })
    const s = start(project.bin, ['--host=127.0.0.1:0'], { cwd: path.join(dir, 'configured') })
    servers.push(s)
    const url = await s.listening
    const res = await fetch(`${url}/api/v1/items/7`, { headers: { origin: 'https://app.example' } })
    expect(await res.json()).toEqual({ id: 7, name: 'seven' })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    s.child.kill('SIGTERM')
    const done = await s.done
    expect(done.code).toBe(0)
    expect(done.stderr).toBe('')
  })

  it('refuses --server=uws when uWebSockets.js is not installed, naming the line that installs it', async () => {
    const r = await run(project.bin, ['--server=uws', '--host=127.0.0.1:0'], { cwd: dir })
    expect(r.code).toBe(1)
    expect(r.stdout).not.toContain('listening')
    expect(r.stderr).toContain('uWebSockets.js is not installed')
    expect(r.stderr).toContain('npm i uWebSockets.js@npm:@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0')
  })

  it("keeps node's compile cache where node has one (Node.js ≥ 22.1), none with NODE_DISABLE_COMPILE_CACHE=1 or --watch", async () => {
    const hasCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
    const on = mkdtempSync(path.join(tmpdir(), 'routeless-cache-on-'))
    const off = mkdtempSync(path.join(tmpdir(), 'routeless-cache-off-'))
    const watching = mkdtempSync(path.join(tmpdir(), 'routeless-cache-watch-'))
    // The files node wrote in the default folder, `node-compile-cache` in the temporary folder (TMPDIR).
    const cached = (tmp: string) => {
      const folder = path.join(tmp, 'node-compile-cache')
      return existsSync(folder) ? readdirSync(folder, { recursive: true }).length : 0
    }
    try {
      expect((await run(project.bin, ['--help'], { cwd: dir, env: { TMPDIR: on } })).code).toBe(0)
      const disabled = { TMPDIR: off, NODE_DISABLE_COMPILE_CACHE: '1' }
      expect((await run(project.bin, ['--help'], { cwd: dir, env: disabled })).code).toBe(0)
      // Under --watch each reload imports the controllers under new URLs: the cache would keep one entry for each.
      expect((await run(project.bin, ['--watch', '--help'], { cwd: dir, env: { TMPDIR: watching } })).code).toBe(0)
      expect(cached(on) > 0).toBe(hasCache)
      expect(cached(off)).toBe(0)
      expect(cached(watching)).toBe(0)
    } finally {
      for (const folder of [on, off, watching]) rmSync(folder, { recursive: true, force: true })
    }
  })

  it('exits 2 for an unknown option, serving nothing', async () => {
    const r = await run(project.bin, ['--port=18401'], { cwd: dir })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Unknown argument: port')
  })
})

describe('library use of the installed package', { timeout: 120_000 }, () => {
  it('loads .ts controllers with createApp under plain node (ESM), no loader given', async () => {
    write(dir, {
      'app.js': `import { createApp } from 'routeless'
const app = await createApp('controllers')
const res = await app.request('/api/v1/items/7')
console.log(res.status, await res.text())
`,
    })
    const r = await run(node, ['app.js'], { cwd: dir })
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('200 {"id":7,"name":"seven"}')
  })

  // How a file was loaded shows in its own source text: node's type stripping leaves `(a: number) => a` as
  // `(a        ) => a` (types become spaces), tsx (esbuild) prints it anew as `a=>a`.
  const PROBE = `const probe = (a: number) => a
export const loader = / {2}/.test(String(probe)) ? 'node' : 'tsx'
`
  const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript)

  it(`loads .ts controllers ${stripsTypes ? 'by type stripping, without tsx' : 'with tsx (this node does not strip types)'}`, async () => {
    write(dir, {
      'app-loader.js': `import { createApp } from 'routeless'
const app = await createApp(process.argv[2])
console.log(await (await app.request('/')).text())
`,
      'stripped/index.ts': `import { loader } from './_probe.ts'
import type { Item } from '../controllers/_lib/items.ts'
export class Default {
  GET(): { loader: string; item: Item } {
    return { loader, item: { id: 1, name: 'one' } }
  }
}
`,
      'stripped/_probe.ts': PROBE,
    })
    const r = await run(node, ['app-loader.js', 'stripped'], { cwd: dir })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual({ loader: stripsTypes ? 'node' : 'tsx', item: { id: 1, name: 'one' } })
  })

  it('loads controllers that type stripping refuses (an enum, a parameter property, imports without .ts) with tsx', async () => {
    write(dir, {
      'needs-tsx/index.ts': `import { loader } from './_probe'
import { Color, Palette } from './_colors.js'
import { Item } from '../controllers/_lib/items.ts'
export class Default {
  GET(): { loader: string; color: Color; palette: string; item: Item } {
    return { loader, color: Color.Red, palette: new Palette('warm').name, item: { id: 2, name: 'two' } }
  }
}
`,
      'needs-tsx/_colors.ts': `export enum Color { Red = 'red' }
export class Palette {
  constructor(public readonly name: string) {}
}
`,
      'needs-tsx/_probe.ts': PROBE,
    })
    const r = await run(node, ['app-loader.js', 'needs-tsx'], { cwd: dir })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual({ loader: 'tsx', color: 'red', palette: 'warm', item: { id: 2, name: 'two' } })
  })

  it('is required from CommonJS, in a project without "type": "module"', async () => {
    write(dir, {
      'cjs/package.json': JSON.stringify({ name: 'cjs-app', private: true }),
      'cjs/controllers/index.ts': `export class Default {
  GET(name = 'world') {
    return { hello: name }
  }
}
`,
      'cjs/main.js': `const { createApp } = require('routeless')
createApp('controllers').then(async (app) => {
  const res = await app.request('/you')
  console.log(res.status, await res.text())
})
`,
    })
    const r = await run(node, ['--no-warnings', 'main.js'], { cwd: path.join(dir, 'cjs') })
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe('200 {"hello":"you"}')
  })

  it("answers app.request() in the project's own vitest, .ts controllers loaded without a build", async () => {
    write(dir, {
      'test/items.test.ts': `import { expect, it } from 'vitest'
import { createApp } from 'routeless'

const app = await createApp('controllers')

it('finds item 7', async () => {
  const res = await app.request('/api/v1/items/7')
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ id: 7, name: 'seven' })
})

it('refuses an id that is not a number', async () => {
  expect((await app.request('/api/v1/items/x')).status).toBe(400)
})
`,
    })
    const r = await run(path.join(dir, 'node_modules/.bin/vitest'), ['run', 'test/items.test.ts'], {
      cwd: dir,
      timeout: 120_000,
      env: { NO_COLOR: '1' },
    })
    expect(r.stdout + r.stderr).toMatch(/Tests\s+2 passed/)
    expect(r.code).toBe(0)
  }, 120_000)
})

describe('the types of the installed package under tsc --strict', { timeout: 120_000 }, () => {
  const consumer = `import { createApp, Controller, defineConfig, HttpError, type Application } from 'routeless'
import { serve } from 'routeless/node'
import { loadUws, serve as serveUws } from 'routeless/uws'
import { runCli } from 'routeless/cli'

export class Users extends Controller<{ db: string }> {
  GET(id: string): { id: string; db: string } {
    if (!id) throw new HttpError(404, 'no id', { headers: { 'cache-control': 'no-store' } })
    return { id, db: this.context.db }
  }
}

export const config = defineConfig({
  prefix: 'controllers',
  server: 'node',
  workers: 'auto',
  context: async () => ({ db: 'x' }),
  renderError: (error) => Response.json({ message: error.message }, { status: error.status }),
  ready: (app) => void app.table.rows.length,
})

export async function main(): Promise<number> {
  const app: Application = await createApp('controllers', { context: { db: 'x' }, cors: { origins: ['https://example.com'] } })
  const res: Response = await app.request('/users/1')
  const server = await serve(app, { port: 0 })
  await server.close()
  const uws: typeof serveUws = serveUws
  void uws
  void loadUws
  const code: number = await runCli(['routes'])
  return res.status + code
}
`
  const strict = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', types: ['node'] }
  const cases: [string, Record<string, unknown>, string][] = [
    ['node16', { module: 'node16', moduleResolution: 'node16' }, 'consumer.ts'],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, 'consumer.ts'],
    ['node10', { module: 'commonjs', moduleResolution: 'node10' }, 'consumer.ts'],
    // A server's library without DOM's (the node starter's): the package names no type only DOM declares.
    ['node16-without-dom', { module: 'node16', moduleResolution: 'node16', lib: ['ES2022'] }, 'consumer.ts'],
  ]

  it.each(cases)(
    'type-checks a consumer with moduleResolution %s and skipLibCheck false',
    async (name, options, file) => {
      write(dir, {
        'types/consumer.ts': consumer,
        [`types/tsconfig.${name}.json`]: JSON.stringify({ compilerOptions: { ...strict, ...options }, files: [file] }),
      })
      const r = await run(node, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${name}.json`], {
        cwd: path.join(dir, 'types'),
      })
      expect(r.stdout + r.stderr).toBe('')
      expect(r.code).toBe(0)
    },
    120_000,
  )

  it('type-checks a CommonJS consumer (node16) that imports routeless dynamically', async () => {
    write(dir, {
      'types/consumer.cts': `export async function main(): Promise<number> {
  const { createApp } = await import('routeless')
  const app = await createApp('controllers')
  return (await app.request('/')).status
}
`,
      'types/tsconfig.cts.json': JSON.stringify({
        compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16' },
        files: ['consumer.cts'],
      }),
    })
    const r = await run(node, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.cts.json'], {
      cwd: path.join(dir, 'types'),
    })
    expect(r.stdout + r.stderr).toBe('')
    expect(r.code).toBe(0)
  }, 120_000)

  it("writes a typed client with routeless client that the project's tsc checks", async () => {
    const written = await run(project.bin, ['client', '--out', 'types/api.ts'], { cwd: dir })
    expect(written.stdout).toContain('routeless: wrote types/api.ts: 2 operations')
    write(dir, {
      'types/client-use.ts': `import { createClient } from './api.js'
const api = createClient({ baseUrl: 'http://127.0.0.1:8000' })
export const item: Promise<{ id: number; name: string } | { name: string }> = api.api.v1.items.get(7, { fields: 'name' })
export const bad = api.api.v1.items.get(7, { feilds: 'name' })
`,
      'types/tsconfig.client.json': JSON.stringify({
        compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16' },
        files: ['client-use.ts'],
      }),
    })
    const r = await run(node, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.client.json'], {
      cwd: path.join(dir, 'types'),
    })
    expect(r.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^client-use\.ts\(4,46\): error TS2561: .*'feilds' does not exist/),
    ])
  }, 120_000)

  it("fails a consumer that misuses the package's types (they are read, not any)", async () => {
    write(dir, {
      'types/misuse.ts': `import { createApp, defineConfig } from 'routeless'
import { serve } from 'routeless/node'
export const n: number = createApp('controllers')
export const s = serve({ fetch: 1 })
export const c = defineConfig({ server: 'apache' })
`,
      'types/tsconfig.misuse.json': JSON.stringify({
        compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16' },
        files: ['misuse.ts'],
      }),
    })
    const r = await run(node, [path.join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.misuse.json'], {
      cwd: path.join(dir, 'types'),
    })
    expect(r.code).not.toBe(0)
    expect(r.stdout).toMatch(
      /misuse\.ts\(3,14\): error TS2322: Type 'Promise<Application>' is not assignable to type 'number'/,
    )
    expect(r.stdout).toMatch(/misuse\.ts\(4,26\): error TS2322/)
    expect(r.stdout).toMatch(
      // the union's members in any order: TypeScript prints them in the order it created the literal types
      /misuse\.ts\(5,33\): error TS2322: Type '"apache"' is not assignable to type '("(node|uws|bun)" \| ){3}undefined'/,
    )
  }, 120_000)
})

describe("the README's section for npm users, run as written", { timeout: 120_000 }, () => {
  /** The README as packed: its "Ten lines" controllers file and its fenced blocks; docs/testing.md's vitest file. */
  function readme() {
    const page = { file: 'README.md', text: readFileSync(path.join(dir, 'node_modules/routeless/README.md'), 'utf8') }
    const ten = blocksOf(page).find((b) => b.file === 'controllers/index.ts')!.code
    const blocks = fences(page).map((f) => ({ lang: f.info.split(' ')[0]!, body: f.code }))
    const testing = { file: 'docs/testing.md', text: readFileSync(path.join(REPO, 'docs/testing.md'), 'utf8') }
    const vitest = blocksOf(testing).find((b) => b.code.includes("from 'vitest'"))!.code
    return { ten, blocks, vitest }
  }

  it('passes the testing page\'s vitest file against the README\'s "Ten lines" controllers', async () => {
    const { ten, vitest } = readme()
    write(dir, { 'readme/controllers/index.ts': ten, 'readme/test/readme.test.ts': vitest })
    const r = await run(path.join(dir, 'node_modules/.bin/vitest'), ['run'], {
      cwd: path.join(dir, 'readme'),
      timeout: 120_000,
      env: { NO_COLOR: '1' },
    })
    expect(r.stdout + r.stderr).toMatch(/Tests\s+1 passed/)
    expect(r.code).toBe(0)
  }, 120_000)

  it('prints what its console session shows for explain and check', async () => {
    const { ten, blocks } = readme()
    write(dir, { 'readme/controllers/index.ts': ten })
    const session = blocks.find((b) => b.lang === 'console' && b.body.includes('routeless explain'))!.body
    const steps = session
      .split(/^\$ /m)
      .filter(Boolean)
      .map((chunk) => {
        const [command, ...output] = chunk.trimEnd().split('\n')
        return { args: command!.replace(/^npx routeless /, '').split(' '), output: output.join('\n') }
      })
    expect(steps.length).toBeGreaterThanOrEqual(3)
    for (const step of steps) {
      const r = await run(project.bin, step.args, { cwd: path.join(dir, 'readme') })
      expect(r.stdout.trimEnd(), step.args.join(' ')).toBe(step.output)
    }
  }, 120_000)
})
