/** `routeless client --out api.ts`: a typed fetch client from the handlers' signatures, checked by tsc and run. */
import { createRequire } from 'node:module'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run, start } from '../package/_project.ts'

const BIN = fileURLToPath(new URL('../../packages/routeless/bin/routeless.js', import.meta.url))
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const node = process.execPath
let dir = ''

const tsc = (file: string) =>
  run(
    node,
    [
      TSC,
      '--strict',
      '--noEmit',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--allowImportingTsExtensions',
      '--lib',
      'es2022,dom',
      file,
    ],
    { cwd: dir },
  )

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-client-'))
  mkdirSync(path.join(dir, 'controllers'))
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
  writeFileSync(
    path.join(dir, 'controllers/users.ts'),
    `export interface Post { id: number; title: string; tags?: string[] }
export class Default {
  GET(): { name: string }[] {
    return [{ name: 'ada' }]
  }
}
export class Posts {
  GET(id: number, { sort }: { sort?: 'new' | 'old' } = {}): Post {
    return { id, title: \`post \${id}\${sort ? ' ' + sort : ''}\` }
  }
  POST({ title, tags }: { title: string; tags?: string[] }): Post {
    return { id: 1, title, tags }
  }
  async PUT(id: number, { file, note, meta, at, codes }: {
    file: File; note?: string; meta?: { tags: string[] }; at?: Date[]
    /**
     * One part of JSON text (a single code too).
     * @json
     */
    codes?: string[]
  }) {
    return { id, text: await file.text(), note: note ?? null, tags: meta?.tags ?? null, at: at?.map((d) => d.toISOString()) ?? null, codes: codes ?? null }
  }
  PATCH(id: number, patch: { title?: string; id?: never }) {
    return { id, ...patch }
  }
}
`,
  )
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('routeless client', { timeout: 120_000 }, () => {
  it("writes a client whose calls follow the path and carry the handlers' types", async () => {
    const written = await run(node, [BIN, 'client', '--out', 'api.ts'], { cwd: dir })
    expect(written.stdout.trim()).toBe('routeless: wrote api.ts: 5 operations')
    writeFileSync(
      path.join(dir, 'consumer.ts'),
      `import { createClient } from './api.ts'
export async function main(baseUrl: string): Promise<string> {
  const api = createClient({ baseUrl })
  const post = await api.users.posts.get(7, { sort: 'new' })
  const title: string = post.title
  const created = await api.users.posts.post({ title: 'hello', tags: ['a'] })
  const names: string[] = (await api.users.get()).map((u) => u.name)
  const at = new Date('2024-01-02T03:04:05Z')
  const uploaded = await api.users.posts.put(7, { file: new Blob(['hi']), note: 'n', meta: { tags: ['a', 'b'] }, at: [at, at], codes: ['x'] })
  const patched = await api.users.posts.patch(7, { title: 't' })
  return JSON.stringify([title, created, names, uploaded, patched])
}
`,
    )
    const ok = await tsc('consumer.ts')
    expect(ok.stdout + ok.stderr).toBe('')
    expect(ok.code).toBe(0)

    const server = start(node, [BIN, '--host=127.0.0.1:0', '--log-level=silent'], { cwd: dir })
    try {
      const url = await server.listening
      writeFileSync(
        path.join(dir, 'run.mjs'),
        `import { main } from './consumer.ts'\nconsole.log(await main(process.argv[2]))\n`,
      )
      const r = await run(node, ['--import', TSX, 'run.mjs', url], { cwd: dir })
      expect(JSON.parse(r.stdout)).toEqual([
        'post 7 new',
        { id: 1, title: 'hello', tags: ['a'] },
        ['ada'],
        {
          id: 7,
          text: 'hi',
          note: 'n',
          tags: ['a', 'b'],
          at: ['2024-01-02T03:04:05.000Z', '2024-01-02T03:04:05.000Z'],
          codes: ['x'],
        },
        { id: 7, title: 't' },
      ])
    } finally {
      server.child.kill('SIGTERM')
      await server.done
    }
  })

  it('makes tsc fail a consumer that misspells a field or misreads a result', async () => {
    await run(node, [BIN, 'client', '--out', 'api.ts'], { cwd: dir })
    writeFileSync(
      path.join(dir, 'misuse.ts'),
      `import { createClient } from './api.ts'
const api = createClient({ baseUrl: 'http://127.0.0.1:1' })
export const a = api.users.posts.post({ titel: 'hello' })
export const b = api.users.posts.get(7, { sort: 'newest' })
export const c = async (): Promise<number> => (await api.users.posts.get(7)).title
export const d = api.users.posts.patch(7, { id: 8 })
export const e = api.users.posts.put(7, { file: 'not a file' })
`,
    )
    const r = await tsc('misuse.ts')
    expect(r.code).not.toBe(0)
    expect(r.stdout).toMatch(
      /misuse\.ts\(3,41\): error TS2561: .*'titel' does not exist.*Did you mean to write 'title'\?/,
    )
    expect(r.stdout).toMatch(
      /misuse\.ts\(4,43\): error TS2322: Type '"newest"' is not assignable to type '"new" \| "old"/,
    )
    expect(r.stdout).toMatch(/misuse\.ts\(5,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/)
    expect(r.stdout).toMatch(/misuse\.ts\(6,\d+\): error TS2322: Type 'number' is not assignable to type 'undefined'/)
    expect(r.stdout).toMatch(/misuse\.ts\(7,\d+\): error TS2322: Type 'string' is not assignable to type 'Blob'/)
  })
})
