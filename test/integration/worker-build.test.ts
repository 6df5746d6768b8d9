/**
 * `routeless build --target=worker`, run as users run it (the built bin): the module it writes is served by workerd
 * with a binding (`this.env`) and `ctx.waitUntil`, by `deno serve` reading no file (Deno's permission audit), and by
 * Bun; a build that cannot be made fails with a coded error, never a half-written module.
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cors, createWorkerApp, originCheck, readSignature, type CompiledModule } from 'routeless/worker'
import { serveModule, type RunningRuntime } from '../_runtimes.ts'
import { evaluateHandler } from '../../packages/routeless/src/compiler/codegen/handler-source.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = path.join(ROOT, 'packages/routeless/bin/routeless.js')
const exec = promisify(execFile)

/** Runs the built CLI in `cwd`; resolves with its exit code and output, whatever the code. */
async function cli(args: string[], cwd = ROOT) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd, timeout: 60_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

// Inside the repository (in .data/, ignored by git), so that `routeless` resolves as it does in a user's project.
mkdirSync(path.join(ROOT, '.data'), { recursive: true })
const dir = mkdtempSync(path.join(ROOT, '.data', 'worker-build-'))
const out = path.join(dir, 'worker.js')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('routeless build --target=worker', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const built = await cli(['build', '--target=worker', '--prefix=test/fixtures/worker', `--out=${out}`])
    expect(built.stderr).toBe('')
    expect(built.stdout).toMatch(/routeless: wrote .*worker\.js: 8 handlers from 1 modules, \d+ KiB/)
  }, 120_000)

  it('writes one module that imports nothing (no node: built-in, no TypeScript, no discovery)', () => {
    const code = readFileSync(out, 'utf8')
    expect([...code.matchAll(/^import .* from "([^"]+)";?$/gm)].map((m) => m[1])).toEqual([])
    expect(code).not.toMatch(/\bimport\(\s*["'`]/)
    expect(code).not.toMatch(/discoverModules|registerTypeScript|readManifest/)
    // Neither code generator (the validators' are Ajv's), and only the format checks the validators call.
    expect(code).not.toMatch(/serializerSource|class Compiler|new Function/)
    expect(code).toMatch(/\bfunction date\(/)
    // The run-time helpers too: the code-point length a minLength counts with, not the deep equality no enum needs.
    expect(code).toMatch(/\bfunction ucs2length\(/)
    expect(code).not.toMatch(/\bfunction equal\(/)
    expect(code).not.toMatch(/\bfunction uri\(/)
    // GET /since's Date is checked as a date-time: that check (and its time parser) is carried.
    expect(code).toMatch(/timeOf\(/)
    // A typed tree without static params, surveyed at build time: no part of the table's compilation it does not need.
    expect(code).not.toMatch(/\bfunction (?:compileBinder|findAmbiguity|surveyTable|readSignature|describeParams)\(/)
    // Its types hold a Date: the reviver; a handler declares answers: their writers. The return checks are
    // development's: never in a Worker.
    expect(code).toMatch(/\bfunction dateReviver\(/)
    expect(code).toMatch(/\bfunction statusSerializers\(/)
    expect(code).toMatch(/\bfunction nestForm\(/)
    // POST /note reads a body: the reader (a tree of GETs has none).
    expect(code).toMatch(/\bfunction readBody\(/)
    expect(code).not.toMatch(/\bfunction (?:answerCheck|returnCheck)\(/)
    // No WEBSOCKET handler: nothing of WebSockets through app.fetch (WebSocketPair).
    expect(code).not.toMatch(/WebSocketPair|function upgradeOnHost\(/)
  })

  it("builds in routeless.config.ts's app options (--config)", async () => {
    const config = path.join(dir, 'routeless.config.ts')
    writeFileSync(
      config,
      "import { defineConfig } from 'routeless'\nexport default defineConfig({ cors: { origins: ['https://app.example'] } })\n",
    )
    const target = path.join(dir, 'configured.js')
    const built = await cli([
      'build',
      '--target=worker',
      '--prefix=test/fixtures/worker',
      `--config=${config}`,
      `--out=${target}`,
    ])
    expect(built.code, built.stderr).toBe(0)
    const worker = await serveModule('workerd', target, { bindings: { GREETING: 'Hi' } })
    try {
      const res = await fetch(`${worker.url}/greet?name=cors`, { headers: { origin: 'https://app.example' } })
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(await res.json()).toBe('Hi, cors')
    } finally {
      await worker.stop()
    }
  })

  describe('served by workerd', () => {
    let worker: RunningRuntime
    beforeAll(async () => {
      // The oldest date promised, and no flag: the bundle imports no node: module and compiles nothing from strings
      // (workerd refuses `new Function` outright before 2025-06-01).
      worker = await serveModule('workerd', out, { bindings: { GREETING: 'Hello' }, compatibilityDate: '2024-01-01' })
    })
    afterAll(() => worker?.stop())

    it("gives controllers the Worker's bindings as this.env, with typed binding", async () => {
      const res = await fetch(`${worker.url}/greet?name=you`)
      expect(await res.json()).toBe('Hello, you')
      const missing = await fetch(`${worker.url}/greet`)
      expect(missing.status).toBe(400)
      expect((await missing.json()).message).toBe('Invalid parameters: name: is required')
    })

    it('checks a format with the function the bundle carries for it (a calendar date)', async () => {
      expect(await (await fetch(`${worker.url}/on?day=2024-02-29`)).json()).toEqual({ day: '2024-02-29' })
      const bad = await fetch(`${worker.url}/on?day=2023-02-29`)
      expect(bad.status).toBe(400)
      expect((await bad.json()).message).toBe('Invalid parameters: day: must match format "date", got "2023-02-29"')
      // A length in code points: one emoji is one, so too short.
      expect(await (await fetch(`${worker.url}/on?day=2024-02-29&tag=%F0%9F%98%80x`)).json()).toEqual({
        day: '2024-02-29',
        tag: '😀x',
      })
      expect((await fetch(`${worker.url}/on?day=2024-02-29&tag=%F0%9F%98%80`)).status).toBe(400)
    })

    it('revives a Date parameter with the reviver its entry passes', async () => {
      expect(await (await fetch(`${worker.url}/since?from=2024-02-29T10:00:00Z`)).json()).toEqual({
        date: true,
        year: 2024,
      })
      const bad = await fetch(`${worker.url}/since?from=soon`)
      expect(bad.status).toBe(400)
      expect((await bad.json()).message).toMatch(/^Invalid parameters: from: must be an ISO 8601 date/)
    })

    it("nests a query's range[from] into the object its keyword type holds", async () => {
      expect(await (await fetch(`${worker.url}/between?range[from]=2&range[to]=7`)).json()).toBe(5)
      const bad = await fetch(`${worker.url}/between?range[from]=2&range[to]=x`)
      expect(bad.status).toBe(400)
      expect((await bad.json()).message).toMatch(/^Invalid parameters: range\.to: must be a number/)
    })

    it('reads a multipart form with no Buffer (a Worker without nodejs_compat has none)', async () => {
      const form = new FormData()
      form.set('note', 'hi')
      const res = await fetch(`${worker.url}/note`, { method: 'POST', body: form })
      expect(res.status).toBe(200)
      expect(await res.json()).toBe('hi')
    })

    it('answers with the status a handler declares, written by its serializer', async () => {
      const made = await fetch(`${worker.url}/made`)
      expect(made.status).toBe(201)
      expect(made.headers.get('location')).toBe('/made/1')
      expect(await made.json()).toEqual({ id: 1 })
      const taken = await fetch(`${worker.url}/made?taken=true`)
      expect(taken.status).toBe(409)
      expect(await taken.json()).toEqual({ reason: 'taken' })
    })

    it('runs work handed to this.env.waitUntil after the answer', async () => {
      expect(await (await fetch(`${worker.url}/later`)).json()).toBe('scheduled')
      let done = 0
      for (let i = 0; i < 40 && done === 0; i++) {
        await new Promise((r) => setTimeout(r, 50))
        done = await (await fetch(`${worker.url}/done`)).json()
      }
      expect(done).toBe(1)
    })
  })

  it('is served by deno serve, which reads no file for it (Deno permission audit)', async () => {
    const audit = path.join(dir, 'audit.jsonl')
    const deno = await serveModule('deno', out, { env: { DENO_AUDIT_PERMISSIONS: audit } })
    try {
      expect(await (await fetch(`${deno.url}/greet?name=deno`)).json()).toBe('undefined, deno')
    } finally {
      await deno.stop()
    }
    const reads = readFileSync(audit, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { permission: string; value: string })
      .filter((e) => e.permission === 'read')
    expect(reads).toEqual([])
  })

  it('is served by bun, which runs a module whose default export has fetch', async () => {
    const bun = await serveModule('bun', out)
    try {
      expect(await (await fetch(`${bun.url}/greet?name=bun`)).json()).toBe('undefined, bun')
    } finally {
      await bun.stop()
    }
  })
})

describe("the starter's Worker", { timeout: 60_000 }, () => {
  it('is at most 100 KiB unminified and imports no node: module (issue 32)', async () => {
    // The starter as `npm create routeless -- --runtime=workers` writes it, built as its `npm run build` builds it.
    const starter = path.join(dir, 'starter')
    const templates = path.join(ROOT, 'packages/create-routeless/templates')
    cpSync(path.join(templates, 'shared/controllers'), path.join(starter, 'controllers'), { recursive: true })
    cpSync(path.join(templates, 'shared/routeless.config.ts'), path.join(starter, 'routeless.config.ts'))
    cpSync(path.join(templates, 'workers/tsconfig.json'), path.join(starter, 'tsconfig.json'))
    writeFileSync(path.join(starter, 'package.json'), '{ "type": "module", "private": true }\n')
    const built = await cli(['build', '--target=worker', '--out=dist/worker.js'], starter)
    expect(built.code, built.stderr).toBe(0)
    const code = readFileSync(path.join(starter, 'dist/worker.js'), 'utf8')
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\(\s*["']node:|\brequire\(\s*["']node:/)
    expect(Buffer.byteLength(code) / 1024).toBeLessThanOrEqual(100)
    // What it does not use, it does not carry: no Date to revive, no answer helper, no development check, no event
    // stream, no body reader (its handlers are GETs, whose bodies no Fetch host passes), no comment.
    expect(code).not.toMatch(
      /\bfunction (?:dateReviver|answerCheck|returnCheck|statusSerializers|answersByStatus|nestForm|streamReply|streamParts|eventStream|readBody|decodeMultipart)\(|\b(?:created|noContent) = /,
    )
    expect(code).not.toMatch(/^\s*\/\*\*/m)
  })
})

describe("a worker build's parts of the table's compilation", { timeout: 60_000 }, () => {
  it('carries those its tree needs (Standard Schema binders for static params) and surveys the tree at build time', async () => {
    const tree = path.join(dir, 'parts')
    mkdirSync(tree)
    // A hand-written Standard Schema (what zod or valibot hand over): digits, as a number.
    writeFileSync(
      path.join(tree, 'index.ts'),
      `const digits = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value: unknown) =>
      typeof value === 'string' && /^\\d+$/.test(value) ? { value: Number(value) } : { issues: [{ message: 'must be digits' }] },
  },
} as const
export class Default {
  static params = { GET: { args: [digits] } }
  GET(id: number) {
    return { id }
  }
}
`,
    )
    writeFileSync(path.join(tree, 'style_rules.ts'), 'export class Default {\n  GET() {\n    return 1\n  }\n}\n')
    writeFileSync(path.join(tree, 'style-rules.ts'), 'export class Default {\n  GET() {\n    return 2\n  }\n}\n')
    const target = path.join(dir, 'parts.js')
    const built = await cli(['build', '--target=worker', `--prefix=${tree}`, `--out=${target}`])
    expect(built.code, built.stderr).toBe(0)
    // The survey ran here: its warning is the build's, and the Worker carries neither it nor the ambiguity check.
    expect(built.stderr).toMatch(/\/style-rules \(.*style-rules\.ts\) and \/style_rules .* differ only by - and _/)
    const code = readFileSync(target, 'utf8')
    expect(code).toMatch(/\bfunction compileBinder\(/)
    expect(code).not.toMatch(/\bfunction (?:findAmbiguity|surveyTable|readSignature|describeParams)\(/)
    const worker = await serveModule('workerd', target, { compatibilityDate: '2024-01-01' })
    try {
      expect(await (await fetch(`${worker.url}/12`)).json()).toEqual({ id: 12 })
      const bad = await fetch(`${worker.url}/twelve`)
      expect(bad.status).toBe(400)
      expect((await bad.json()).message).toMatch(/must be digits/)
    } finally {
      await worker.stop()
    }
  })
})

describe("a Worker's app, made with the parts its entry passes (createWorkerApp)", () => {
  const modules = [
    {
      path: '',
      exports: {
        Default: class {
          GET() {
            return 'hi'
          }
        },
      },
    },
  ]
  const compiled = undefined as unknown as CompiledModule // no manifest: nothing typed, nothing generated
  // Nor the handlers' code, which a built Worker's entry carries: here, in node, it is evaluated as createApp does.
  const evaluate = evaluateHandler

  it('refuses at start-up an option whose part its build left out (the config changed since)', async () => {
    const options = { cors: { origins: ['https://app.example'] } }
    await expect(createWorkerApp(modules, options, compiled, { readSignature, evaluate })).rejects.toThrow(
      /^cors: build the application with createApp\(\).*run routeless build --target=worker again/,
    )
    await expect(
      createWorkerApp(modules, { explainNotFound: true }, compiled, { readSignature, evaluate }),
    ).rejects.toThrow(/^explainNotFound: /)
  })

  it('serves with the parts it is given', async () => {
    const options = { cors: { origins: ['https://app.example'] } }
    const app = await createWorkerApp(modules, options, compiled, {
      readSignature,
      evaluate,
      cors: { cors, originCheck },
    })
    const res = await app.request('/', { headers: { origin: 'https://app.example' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(await res.json()).toBe('hi')
  })
})

describe('a worker build that cannot be made', { timeout: 60_000 }, () => {
  it('names the import esbuild cannot resolve (ROUTELESS_ERR_BUNDLE) and writes nothing', async () => {
    const tree = path.join(dir, 'broken')
    mkdirSync(tree)
    writeFileSync(
      path.join(tree, 'index.ts'),
      "import { nothing } from 'no-such-package-here'\nexport class Default {\n  GET() {\n    return nothing\n  }\n}\n",
    )
    const target = path.join(dir, 'broken.js')
    const built = await cli(['build', '--target=worker', `--prefix=${tree}`, `--out=${target}`])
    expect(built.code).toBe(1)
    expect(built.stderr).toMatch(
      /Could not resolve "no-such-package-here" \(.*broken\/index\.ts:1\) \[ROUTELESS_ERR_BUNDLE\]/,
    )
    expect(existsSync(target)).toBe(false)
  })

  it('refuses a tree that could not start (two modules answering one path), before bundling', async () => {
    const tree = path.join(dir, 'conflict')
    mkdirSync(path.join(tree, 'a'), { recursive: true })
    const controller = 'export class Default {\n  GET() {\n    return 1\n  }\n}\n'
    writeFileSync(path.join(tree, 'a.ts'), controller)
    writeFileSync(path.join(tree, 'a', 'index.ts'), controller)
    const target = path.join(dir, 'conflict.js')
    const built = await cli(['build', '--target=worker', `--prefix=${tree}`, `--out=${target}`])
    expect(built.code).toBe(1)
    expect(built.stderr).toMatch(/both answer \/a \[ROUTELESS_ERR_MODULE_CONFLICT\]/)
    expect(existsSync(target)).toBe(false)
  })

  it('says a prefix that names nothing (ROUTELESS_ERR_PREFIX_NOT_FOUND)', async () => {
    const built = await cli(['build', '--target=worker', '--prefix=no/such/dir', `--out=${path.join(dir, 'x.js')}`])
    expect(built.code).toBe(1)
    expect(built.stderr).toMatch(/Controller prefix "no\/such\/dir" not found.*\[ROUTELESS_ERR_PREFIX_NOT_FOUND\]/)
  })

  it('refuses a target it does not know, as a usage error', async () => {
    const built = await cli(['build', '--target=lambda'])
    expect(built.code).toBe(2)
    expect(built.stderr).toMatch(/Invalid values:[\s\S]*target[\s\S]*"lambda"/)
  })
})
