/**
 * `routeless client` for handlers that declare their answers (`Created<T, {location: string}> | Conflict<E>`): each
 * call resolves to a union discriminated by `status`, with each member's body and headers. tsc checks a consumer whose
 * `switch` handles every member (and fails one that forgets a member: the `never` of an exhaustive switch), then the
 * consumer runs against the served API.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE, run, start } from '../package/_project.ts'

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
    ].concat(['--allowImportingTsExtensions', '--lib', 'es2022,dom', file]),
    { cwd: dir },
  )

const CONTROLLER = `import { type Conflict, Controller, type Created, conflict, created, type NoContent, noContent, type NotFound, notFound, type SeeOther, seeOther } from 'routeless'
export interface Glossary { id: string; name: string }
export interface Problem { title: string }
export class Default extends Controller {
  POST(name: string): Created<Glossary, { location: string }> | Conflict<Problem> {
    if (name === 'taken') return conflict({ title: 'taken' })
    return created({ id: 'g1', name }, { location: '/glossaries/g1' })
  }
  GET(id: string): Glossary | NotFound<Problem> {
    return id === 'g1' ? { id, name: 'first' } : notFound({ title: 'no ' + id })
  }
  DELETE(_id: string): NoContent | SeeOther {
    return _id === 'old' ? seeOther('/glossaries/new') : noContent()
  }
}
`

/** A consumer whose switch covers every member (or, `skip`, forgets the one of that status). */
const consumer = (skip?: number) => `import { createClient } from './api.ts'
export async function main(baseUrl: string): Promise<string[]> {
  const api = createClient({ baseUrl })
  const out: string[] = []
  for (const name of ['fresh', 'taken']) {
    const r = await api.glossaries.post(name)
    switch (r.status) {
      case 201: {
        const location: string = r.headers.location
        out.push(\`201 \${r.body.id} \${r.body.name} \${location}\`)
        break
      }
${skip === 409 ? '' : "      case 409:\n        out.push('409 ' + r.body.title)\n        break"}
      default: {
        const unhandled: never = r
        throw new Error(String(unhandled))
      }
    }
  }
  for (const id of ['g1', 'g2']) {
    const r = await api.glossaries.get(id)
    out.push(r.status === 200 ? \`200 \${r.body.name}\` : \`\${r.status} \${r.body.title}\`)
  }
  for (const id of ['x', 'old']) {
    const r = await api.glossaries.delete(id)
    if (r.status === 204) {
      const nothing: undefined = r.body
      out.push(\`204 \${nothing}\`)
    } else out.push(\`303 \${r.headers.location}\`)
  }
  return out
}
`

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-client-answers-'))
  mkdirSync(path.join(dir, 'controllers'))
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(PACKAGE, path.join(dir, 'node_modules/routeless'))
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}')
  writeFileSync(path.join(dir, 'controllers/glossaries.ts'), CONTROLLER)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('routeless client, declared answers', { timeout: 120_000 }, () => {
  it('resolves each call to a union discriminated by status, each member with its body and headers', async () => {
    const written = await run(node, [BIN, 'client', '--out', 'api.ts'], { cwd: dir })
    expect(written.stdout.trim()).toBe('routeless: wrote api.ts: 3 operations')
    writeFileSync(path.join(dir, 'consumer.ts'), consumer())
    const ok = await tsc('consumer.ts')
    expect(ok.stdout + ok.stderr).toBe('')
    expect(ok.code).toBe(0)

    const server = start(node, [BIN, '--host=127.0.0.1:0', '--log-level=silent'], { cwd: dir })
    try {
      const url = await server.listening
      writeFileSync(
        path.join(dir, 'run.mjs'),
        `import { main } from './consumer.ts'\nconsole.log(JSON.stringify(await main(process.argv[2])))\n`,
      )
      const r = await run(node, ['--import', TSX, 'run.mjs', url], { cwd: dir })
      expect(r.stderr).toBe('')
      expect(JSON.parse(r.stdout)).toEqual([
        '201 g1 fresh /glossaries/g1',
        '409 taken',
        '200 first',
        '404 no g2',
        '204 undefined',
        '303 /glossaries/new',
      ])
    } finally {
      server.child.kill('SIGTERM')
      await server.done
    }
  })

  it('fails to type-check a switch that forgets a member', async () => {
    await run(node, [BIN, 'client', '--out', 'api.ts'], { cwd: dir })
    writeFileSync(path.join(dir, 'forgets.ts'), consumer(409))
    const r = await tsc('forgets.ts')
    expect(r.code).not.toBe(0)
    expect(r.stdout).toMatch(
      /forgets\.ts\(\d+,\d+\): error TS2322: Type '\{ status: 409; body: Problem; headers: \{\}; \}' is not assignable to type 'never'/,
    )
  })
})
