/**
 * Binding under random input, for typed handlers, Standard Schema params and untyped ones: 3,000 requests a fixture (seeded, so a failure replays) of query strings, urlencoded forms,
 * JSON bodies and multipart forms built from field names that nest (`user[address][city]`, `a.b`), collide
 * (`user=…` beside `user[name]=…`), index far (`x[99999]`) or aim at prototypes (`user[__proto__][x]`), with values
 * that are JSON, numbers out of range, NULs, commas and long text. Every answer must be a 2xx or a 4xx — never a 5xx —
 * and no object in the process may gain a property. `FUZZ_SEED=n` runs another sequence (the default, 12, is CI's).
 */
import { expect, it } from 'vitest'
import { fixtureApp, logged } from '../_apps.ts'

const KEYS = [
  'name',
  'che',
  'ids',
  'ids[]',
  'ids[0]',
  'user',
  'user[name]',
  'user[age]',
  'user[address][city]',
  'user.name',
  'user[referrer][name]',
  'tags',
  'tags[0]',
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'user[__proto__][polluted]',
  'user.__proto__.polluted',
  'user[constructor][prototype][polluted]',
  'a[0][0][0][0][0][0][0][0][0][0]',
  'x[99999]',
  '',
  '[]',
  'user[]',
  'user[0]',
  'size',
  'sort',
  'since',
  'port',
  'host',
  'labels[0]',
  'labels',
  'id',
  'file',
  'note',
  'flag',
]
const VALUES = [
  '',
  '1',
  'x',
  'null',
  'true',
  '{}',
  '[]',
  '{"name":"a","age":1}',
  '[1,2]',
  '1e999',
  '-0',
  '2024-01-02T00:00:00Z',
  '%00',
  '\u0000',
  'a,b',
  '1,2',
  '__proto__',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  'x'.repeat(5000),
]
const PARTS = ['1', '0', '-1', 'x', 'true', 'red', '2024-01-02', '%00', '1e999', '']

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

it.each(['typed', 'schemas', 'args', 'features', 'basic'])(
  'answers random input to %s with 2xx or 4xx, never a 5xx, and pollutes no prototype',
  async (fixture) => {
    const app = await fixtureApp(fixture)()
    const next = random(Number(process.env.FUZZ_SEED ?? 12))
    const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!
    // Each handler's path, its placeholders and a few more parts filled at random.
    const routes = [...app.table.handlers()].filter((h) => h.method !== 'WEBSOCKET').map((h) => h.path)
    const PATHS = () =>
      pick(routes).replace(/\{[^}]+\}/g, () => encodeURIComponent(pick(PARTS))) +
      (next() < 0.3 ? `/${pick(PARTS)}` : '')
    const failures: string[] = []
    for (let i = 0; i < 3000; i++) {
      const fields = Array.from({ length: Math.floor(next() * 4) }, () => [pick(KEYS), pick(VALUES)] as const)
      const query = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
      const method = pick(['POST', 'PATCH', 'PUT', 'DELETE'])
      const kind = pick(['query', 'form', 'json', 'multipart'] as const)
      let init: RequestInit | undefined
      let path = PATHS()
      if (kind === 'query') path += `?${query}`
      else if (kind === 'form')
        init = { method, body: query, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      else if (kind === 'json') {
        const body: Record<string, unknown> = {}
        // defineProperty: a key `__proto__` becomes an own property, as JSON.parse makes it
        for (const [k, v] of fields)
          Object.defineProperty(body, k, { value: next() < 0.5 ? v : tryJson(v), enumerable: true, configurable: true })
        init = { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      } else {
        const body = new FormData()
        for (const [k, v] of fields) next() < 0.3 ? body.append(k, new File([v], 'f.txt')) : body.append(k, v)
        init = { method, body }
      }
      const res = await app.request(path, init)
      const what = `#${i} ${init?.method ?? 'GET'} ${path} ${kind} ${JSON.stringify(fields).slice(0, 300)}`
      if (res.status >= 500) failures.push(`${res.status} ${what}`)
      if (({} as Record<string, unknown>).polluted !== undefined) {
        failures.push(`polluted by ${what}`)
        delete (Object.prototype as Record<string, unknown>).polluted
      }
    }
    expect(failures).toEqual([])
    expect(logged).toEqual([])
  },
  120_000,
)

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
