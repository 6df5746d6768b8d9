/**
 * The recipes of docs/runtimes.md, run as written from the packed tarball: a fresh project serves one controller tree
 * with the CLI on node, with its own `server.ts` on Bun (`Bun.serve`) and `main.ts` on Deno (`Deno.serve`), and built
 * with `routeless build --target=worker` under the page's `wrangler.toml`, served by workerd — and every runtime
 * answers every request with the bytes node answers (status, content type, `Allow`, body; only a malformed JSON body's
 * 400 words the parser's complaint as each engine does).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { itOn } from '../_matrix.ts'
import { BINARIES, serveModule, type Runtime } from '../_runtimes.ts'
import { fences } from '../_docs-code.ts'
import { installProject, REPO, run, start, write, type Project } from './_project.ts'

/** The recipes of docs/runtimes.md: its fenced blocks whose first line names a file (`// server.ts`, `# wrangler.toml`). */
function recipes(): Record<string, string> {
  const files: Record<string, string> = {}
  const page = { file: 'docs/runtimes.md', text: readFileSync(path.join(REPO, 'docs/runtimes.md'), 'utf8') }
  for (const { code } of fences(page)) {
    const m = /^(?:\/\/|#) ([\w.]+)\n/.exec(code)
    if (m) files[m[1]!] = code.slice(m[0].length)
  }
  return files
}

const CONTROLLERS = {
  'controllers/index.ts': `import { HttpError } from 'routeless'

export class Default {
  GET() {
    return 'Default handler'
  }
}

export class Items {
  GET(id: number, { fields }: { fields?: 'name' } = {}) {
    if (id !== 7) throw new HttpError(404, \`No item \${id}\`)
    return fields === 'name' ? { name: 'seven' } : { id, name: 'seven' }
  }
  POST({ name, tags }: { name: string; tags?: string[] }) {
    return { created: name, tags: tags ?? [] }
  }
}

export class Stream {
  GET() {
    const text = new TextEncoder()
    return new ReadableStream({
      start(c) {
        c.enqueue(text.encode('a,'))
        c.enqueue(text.encode('b'))
        c.close()
      },
    })
  }
}

export class Lines {
  async *GET() {
    yield { n: 1 }
    yield { n: 2 }
  }
}

export class Boom {
  GET() {
    throw new Error('secret')
  }
}
`,
}

const json = (body: string) => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } })
const form = (body: string) => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

/** The conformance suite's kinds of answer: JSON, typed 400s, 404/405, bodies, streams, errors, OPTIONS and HEAD. */
const CASES: [string, RequestInit?][] = [
  ['/'],
  ['/items/7'],
  ['/items/7?fields=name'],
  ['/items/x'],
  ['/items/7?fields=bogus'],
  ['/items/8'],
  ['/nowhere'],
  ['/items/7', { method: 'DELETE' }],
  ['/items', json('{"name":"n","tags":["a"]}')],
  ['/items', form('name=n&tags=a&tags=b')],
  ['/items', json('{"nmae":"x"}')],
  ['/items', json('{')],
  ['/stream'],
  ['/lines'],
  ['/boom'],
  ['/items', { method: 'OPTIONS' }],
  ['/items/7', { method: 'HEAD' }],
]

async function answers(base: string): Promise<string[]> {
  const out: string[] = []
  for (const [p, init] of CASES) {
    const res = await fetch(base + p, init)
    const headers = ['content-type', 'allow'].map((h) => `${h}: ${res.headers.get(h)}`).join('; ')
    // A malformed JSON body's 400 gives the parser's own words after the colon: each engine words them its way.
    const body = (await res.text()).replace(/(Malformed JSON body: )[^"]+/, "$1(the engine's words)")
    out.push(`${init?.method ?? 'GET'} ${p} → ${res.status}; ${headers}; ${body}`)
  }
  return out
}

let project: Project
const servers: ReturnType<typeof start>[] = []

beforeAll(async () => {
  project = await installProject({ type: 'module' }, ['typescript@5.9.3'])
  write(project.dir, { ...CONTROLLERS, ...recipes() })
  const manifest = await run(project.bin, ['build'], { cwd: project.dir })
  expect(manifest.code, manifest.stderr).toBe(0)
}, 300_000)

afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL')
  project?.remove()
})

/** Starts `file args` in the project with PORT=0 and resolves with its URL (the "listening on" line). */
async function serve(file: string, args: string[]): Promise<string> {
  const s = start(file, args, { cwd: project.dir, env: { PORT: '0', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } })
  servers.push(s)
  return (await s.listening).replace(/\/$/, '')
}

describe('the runtimes page recipes, from the packed tarball', { timeout: 120_000 }, () => {
  let expected: string[]

  beforeAll(async () => {
    expected = await answers(await serve(project.bin, ['--host=127.0.0.1:0', '--log-level=error']))
  }, 60_000)

  it('has the recipes it runs: server.ts, main.ts and wrangler.toml', () => {
    expect(Object.keys(recipes()).sort()).toEqual(['main.ts', 'server.ts', 'wrangler.toml'])
    expect(expected[3]).toMatch(/^GET \/items\/x → 400;/)
  })

  const runtimes: [Runtime, string, () => string[]][] = [
    ['bun', 'server.ts', () => ['server.ts']],
    ['deno', 'main.ts', () => ['run', '-A', 'main.ts']],
  ]
  for (const [runtime, file, args] of runtimes) {
    itOn(runtime, `serves the tree on ${runtime} (${file}) with node's bytes`, async () => {
      expect(await answers(await serve(BINARIES[runtime](), args()))).toEqual(expected)
    })
  }

  itOn(
    'workerd',
    "builds it with routeless build --target=worker and serves it on workerd under the runtimes page's wrangler.toml",
    async () => {
      const toml = recipes()['wrangler.toml']!
      const setting = (key: string) => new RegExp(`^${key} = "([^"]+)"$`, 'm').exec(toml)?.[1]
      const main = setting('main')!
      const built = await run(project.bin, ['build', '--target=worker', `--out=${main}`], { cwd: project.dir })
      expect(built.code, built.stderr).toBe(0)
      const worker = await serveModule('workerd', path.join(project.dir, main), {
        compatibilityDate: setting('compatibility_date'),
      })
      try {
        expect(await answers(worker.url)).toEqual(expected)
      } finally {
        await worker.stop()
      }
    },
  )
})
