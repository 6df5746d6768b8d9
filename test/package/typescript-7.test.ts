/**
 * The packed tarball in a project on TypeScript 7 (what `npm i -D typescript` installs today) and in one on 5.9: both
 * install without a peer conflict, and the same controllers give the same 400s, the same OpenAPI document and the
 * same typed client (each project's own tsc checks a call through it). The OpenAPI documents are compared without the
 * order of an object's properties: TypeScript 7 lists an object spread's members in source order, 5.9 otherwise (the
 * same properties and schemas: see test/_property-order.ts).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { propertyOrderFree } from '../_property-order.ts'
import { installProject, type Project, run, start, write } from './_project.ts'

const CONTROLLERS = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
    },
    include: ['controllers', 'types'],
  }),
  'controllers/index.ts': `import type { Order } from './_types.ts'

export class Default {
  GET() {
    return 'Default handler'
  }
}

export class Orders {
  /** One order. */
  GET(id: number): Order {
    return { id, size: 'large', lines: [] }
  }
  /** Places an order. */
  POST(order: Order) {
    return { ...order, accepted: true }
  }
}
`,
  'controllers/_types.ts': `/**
 * A quantity.
 * @minimum 1
 * @integer
 */
export type Quantity = number

export interface Line {
  /** @minLength 1 */
  sku: string
  quantity: Quantity
}

/** An order. */
export interface Order {
  id: number
  size: 'small' | 'medium' | 'large'
  lines: Line[]
  note?: string | null
}
`,
  'types/use.ts': `import { createClient } from './api.js'

const api = createClient({ baseUrl: 'http://127.0.0.1:1' })
export const placed = api.orders.post({ id: 1, size: 'small', lines: [{ sku: 'a', quantity: 1 }] })
export const wrong = api.orders.post({ id: 1, size: 'huge', lines: [] })
`,
}

const BAD = [
  ['GET', '/orders/x', undefined],
  ['POST', '/orders', { id: 1, size: 'huge', lines: [] }],
  ['POST', '/orders', { id: 1, size: 'small', lines: [{ sku: '', quantity: 0.5 }] }],
  ['POST', '/orders', { id: 1, size: 'small', lines: [], extra: true }],
] as const

let ts7: Project
let ts5: Project

beforeAll(async () => {
  ;[ts7, ts5] = await Promise.all([
    installProject({ type: 'module' }, ['typescript@7.0.2', '@types/node@20.19.25']),
    installProject({ type: 'module' }, ['typescript@5.9.3', '@types/node@20.19.25']),
  ])
  for (const p of [ts7, ts5]) write(p.dir, CONTROLLERS)
}, 300_000)

afterAll(() => {
  ts7?.remove()
  ts5?.remove()
})

/** What `project` answers and writes: the bodies of the bad requests, the OpenAPI document, the client, tsc's errors. */
async function contract(project: Project) {
  const s = start(project.bin, ['--host=127.0.0.1:0', '--log-level=warn'], { cwd: project.dir })
  const url = await s.listening
  const answers = []
  for (const [method, p, body] of BAD) {
    const res = await fetch(`${url}${p}`, {
      method,
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    })
    answers.push({ status: res.status, body: await res.json() })
  }
  const ok = await fetch(`${url}/orders/7`)
  s.child.kill('SIGTERM')
  await s.done
  const openapi = await run(project.bin, ['openapi'], { cwd: project.dir })
  const client = await run(project.bin, ['client', '--out', 'types/api.ts'], { cwd: project.dir })
  const tsc = await run(process.execPath, [path.join(project.dir, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
    cwd: project.dir,
  })
  return {
    ok: ok.status,
    answers,
    openapi: JSON.parse(openapi.stdout),
    client: { code: client.code, text: readFileSync(path.join(project.dir, 'types/api.ts'), 'utf8') },
    tsc: tsc.stdout.split('\n').filter((l) => /error TS/.test(l)),
  }
}

describe('a project on TypeScript 7', { timeout: 180_000 }, () => {
  it('installs routeless without a peer conflict', async () => {
    const ls = await run('npm', ['ls', 'typescript', 'routeless'], { cwd: ts7.dir })
    expect(ls.code, ls.stderr).toBe(0)
    expect(ls.stdout).toMatch(/typescript@7\.0\.2/)
  })

  it('gets the same 400s, OpenAPI document and typed client as a project on 5.9', async () => {
    const [seven, five] = [await contract(ts7), await contract(ts5)]
    expect(seven.ok).toBe(200)
    expect(seven.answers.map((a) => a.status)).toEqual([400, 400, 400, 400])
    expect(seven.answers).toEqual(five.answers)
    expect(seven.openapi.paths['/orders'].post).toBeDefined()
    expect(propertyOrderFree(seven.openapi)).toEqual(propertyOrderFree(five.openapi))
    expect(seven.client.code).toBe(0)
    // The same declarations; an object type's members may come in the other order (as in the OpenAPI document).
    const lines = (text: string) => text.split('\n').sort()
    expect(lines(seven.client.text)).toEqual(lines(five.client.text))
    // Each project's own tsc rejects the misspelled size through the client, and only that.
    expect(seven.tsc).toHaveLength(1)
    expect(seven.tsc[0]).toMatch(/^types\/use\.ts\(5,\d+\): error TS2322: .*"huge"/)
    expect(five.tsc).toHaveLength(1)
  })
})
